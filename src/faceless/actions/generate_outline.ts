// faceless.generate_outline (catalog 4.4): acts and scenes of a faceless video before its script,
// from the text model (structured output). Writes nothing; a test key gets a quote.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { language, prompt } from "../../actions/catalog/define.js";

const outline = z.object({
  title: z.string().min(1).max(200),
  acts: z
    .array(
      z.object({
        title: z.string().min(1).max(200),
        scenes: z.array(z.object({ title: z.string().min(1).max(200), summary: z.string().max(1_000), visual: z.string().max(1_000).describe("What the viewer sees.") })).min(1).max(10),
      }),
    )
    .min(1)
    .max(5),
});

export default defineAction({
  name: "faceless.generate_outline",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({
    prompt: prompt().min(1),
    language: language().optional(),
  }),
  price: { credits: 1, per: "call" },
  weight: 2,
  purpose: "act and scene outline before the full script",
  mode: "model",
  uses: ["text"],
  output: z.object({
    object: z.literal("faceless_outline"),
    language: z.string(),
    title: z.string(),
    acts: z.array(z.object({ index: z.number().int(), title: z.string(), scenes: z.array(z.object({ index: z.number().int(), title: z.string(), summary: z.string(), visual: z.string() })) })),
    scene_count: z.number().int(),
  }),
  async example() {
    return { prompt: "How bees choose a new home" };
  },
  async run({ providers }, input) {
    const language = input.language?.trim() || "en";
    const answer = await providers.get("text").generateObject({
      system: "You outline faceless videos (a narrator over visuals): one to five acts, each with its scenes; every scene has a title, a one-sentence summary and the picture the viewer sees.",
      prompt: [`Subject: ${input.prompt}`, `Language: ${language}`].join("\n"),
      schema: outline,
      schemaName: "faceless_outline",
    });
    let scene = 0;
    const acts = answer.object.acts.map((act, index) => ({
      index,
      title: act.title.trim(),
      scenes: act.scenes.map((item) => ({ index: scene++, title: item.title.trim(), summary: item.summary.trim(), visual: item.visual.trim() })),
    }));
    return { object: "faceless_outline" as const, language, title: answer.object.title.trim(), acts, scene_count: scene };
  },
});
