// scripts.suggest_titles (catalog 4.9): titles for the script, from the text model, each with why
// it earns the click. Writes nothing (scripts.set_meta sets the one chosen); one credit per call
// whatever `count` (default 5, at most 10).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { count, id, idempotencyKey, request } from "../../actions/catalog/define.js";
import { readForPass } from "../writing/pass.js";
import { DEFAULT_SUGGESTIONS, askModel, enoughParagraphs, passPrompt, readingFields, requireParagraphs } from "../writing/reading.js";

/** A script title's limit (scripts.set_meta `title`), so any suggestion can be set as it is. */
const TITLE_CHARACTERS = 500;

const title = z.object({
  title: z.string().min(1).max(TITLE_CHARACTERS),
  why: z.string().min(1).max(1000).describe("What makes it work for this audience."),
});

export default defineAction({
  name: "scripts.suggest_titles",
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
  purpose: "several titles; writes nothing",
  mode: "model",
  uses: ["text"],
  output: z.object({
    object: z.literal("script_titles"),
    ...readingFields,
    titles: z.array(title.meta({ id: "ScriptTitleSuggestion" })),
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { topic: "Home coffee roasting" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Roasting turns green beans brown in minutes." });
    return { script_id: script.script_id, count: 2 };
  },
  async check(context, input) {
    await requireParagraphs(context, input.script_id, 1, "Suggesting titles");
  },
  async run(context, input) {
    const wanted = input.count ?? DEFAULT_SUGGESTIONS;
    const document = await readForPass(context.db, context.graphql, input.script_id);
    enoughParagraphs(document.paragraphs.length, 1, "Suggesting titles");
    const { object, model } = await askModel(context, document, "document", {
      ...passPrompt(
        document,
        "You title videos: short, specific, honest titles that make the right viewer click. No clickbait the video does not deliver.",
        `Write exactly ${wanted} different titles for this script, each with why it works, in the script's language and house style.`,
      ),
      schema: z.object({ titles: z.array(title).min(1).max(wanted) }),
      schemaName: "script_titles",
    });
    return { object: "script_titles" as const, script_id: input.script_id, revision: document.revision, model, request: input.request ?? null, titles: object.titles.slice(0, wanted) };
  },
});
