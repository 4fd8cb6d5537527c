// scripts.suggest_hooks (catalog 4.9): openers for the script, from the text model, each with why
// it holds a viewer. Writes nothing; one credit per call whatever `count` (default 5, at most 10).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { count, id, idempotencyKey, request } from "../../actions/catalog/define.js";
import { readForPass } from "../writing/pass.js";
import { DEFAULT_SUGGESTIONS, askModel, enoughParagraphs, passPrompt, readingFields, requireParagraphs } from "../writing/reading.js";

const hook = z.object({
  text: z.string().min(1).max(1000).describe("The opening words, as they would be spoken."),
  why: z.string().min(1).max(1000).describe("Why it makes a viewer stay."),
});

export default defineAction({
  name: "scripts.suggest_hooks",
  method: "GET",
  scopes: ["scripts:execute"],
  credits: true,
  input: z.strictObject({
    script_id: id(),
    count: count().optional(),
    request: request().optional(),
    idempotency_key: idempotencyKey().optional(),
  }),
  price: { credits: 1, per: "call" },
  weight: 2,
  purpose: "several openers; writes nothing",
  mode: "model",
  uses: ["text"],
  output: z.object({
    object: z.literal("script_hooks"),
    ...readingFields,
    hooks: z.array(hook.meta({ id: "ScriptHook" })),
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Hooks example", topic: "Home coffee roasting" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Roasting turns green beans brown in minutes." });
    return { script_id: script.script_id, count: 2 };
  },
  async check(context, input) {
    await requireParagraphs(context, input.script_id, 1, "Suggesting hooks");
  },
  async run(context, input) {
    const wanted = input.count ?? DEFAULT_SUGGESTIONS;
    const document = await readForPass(context.db, context.graphql, input.script_id);
    enoughParagraphs(document.paragraphs.length, 1, "Suggesting hooks");
    const { object, model } = await askModel(context, document, "document", {
      ...passPrompt(
        document,
        "You write openers for spoken videos: the first seconds that decide whether a viewer stays. Each opener is distinct in approach (question, surprising fact, stakes, story, promise).",
        `Write exactly ${wanted} different openers for this script, each with why it works. They must lead into the script as it is, in its language and house style.`,
      ),
      schema: z.object({ hooks: z.array(hook).min(1).max(wanted) }),
      schemaName: "script_hooks",
    });
    return { object: "script_hooks" as const, script_id: input.script_id, revision: document.revision, model, request: input.request ?? null, hooks: object.hooks.slice(0, wanted) };
  },
});
