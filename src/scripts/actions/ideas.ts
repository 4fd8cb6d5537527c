// scripts.ideas (catalog 4.8): subjects for a script, each with its angle, from the text model.
// Priced per subject asked (`count`); should the model give fewer, only those are paid for.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { count, idempotencyKey, label, language, prompt } from "../../actions/catalog/define.js";

const idea = z.object({
  title: z.string().min(1).max(200).describe("The subject, as a working title."),
  angle: z.string().min(1).max(1000).describe("The take that makes it worth watching."),
  hook: z.string().min(1).max(500).describe("An opening line."),
  audience: z.string().max(300).describe("Who it is for."),
});

export default defineAction({
  name: "scripts.ideas",
  method: "POST",
  scopes: ["scripts:execute"],
  credits: true,
  input: z.strictObject({
    topic: prompt().min(1),
    language: language().optional(),
    format: label().optional(),
    count: count().default(5),
    idempotency_key: idempotencyKey().optional(),
  }),
  price: { credits: 1, per: "subject", unit_field: "count" },
  weight: 2,
  purpose: "subjects with angles; needs no `script_id`",
  mode: "model",
  uses: ["text"],
  output: z.object({
    object: z.literal("script_ideas"),
    topic: z.string(),
    language: z.string(),
    format: z.string().nullable(),
    ideas: z.array(idea),
  }),
  async example() {
    return { topic: "Home coffee roasting", count: 3 };
  },
  async run({ providers, ran }, input) {
    const language = input.language?.trim() || "en";
    const answer = await providers.get("text").generateObject({
      system: "You pitch subjects for short videos: each a distinct subject with a sharp angle, a hook line and its audience. No two ideas share an angle.",
      prompt: [`Topic: ${input.topic}`, `Ideas: exactly ${input.count}`, `Language: ${language}`, input.format ? `Format: ${input.format}` : undefined].filter(Boolean).join("\n"),
      // At most `count`; fewer are accepted and paid for as fewer.
      schema: z.object({ ideas: z.array(idea).min(1).max(input.count) }),
      schemaName: "script_ideas",
    });
    const ideas = answer.object.ideas.slice(0, input.count);
    ran(ideas.length);
    return { object: "script_ideas" as const, topic: input.topic, language, format: input.format ?? null, ideas };
  },
});
