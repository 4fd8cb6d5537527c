// scripts.write_variants (catalog 4.9): other versions of one paragraph, from the quick text model
// (a per-paragraph pass). The model sees the paragraph with its neighbours so a variant still
// fits its place; `instruction` steers it, after the paragraph's own margin note. Writes nothing
// (scripts.set_paragraph_text applies the one chosen), so a locked paragraph may be asked too;
// one credit per call whatever `count` (default 3, at most 10).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { count, id, idempotencyKey, prompt, request } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { readScript } from "../document.js";
import { paragraphOf } from "../summary.js";
import { paragraphBlock, readForPass } from "../writing/pass.js";
import { DEFAULT_VARIANTS, askModel, passPrompt, readingFields } from "../writing/reading.js";

const variant = z.object({
  text: z.string().min(1).max(20_000).describe("The paragraph's words, rewritten."),
  note: z.string().min(1).max(1000).describe("What this version does differently."),
});

export default defineAction({
  name: "scripts.write_variants",
  method: "GET",
  scopes: ["scripts:execute"],
  credits: true,
  input: z.strictObject({
    script_id: id(),
    paragraph_id: id(),
    count: count().optional(),
    instruction: prompt().optional(),
    request: request().optional(),
    idempotency_key: idempotencyKey().optional(),
  }),
  price: { credits: 1, per: "call" },
  weight: 2,
  purpose: "alternative versions of one paragraph; writes nothing",
  mode: "model",
  uses: ["text"],
  output: z.object({
    object: z.literal("paragraph_variants"),
    ...readingFields,
    paragraph_id: z.string(),
    original: z.string().describe("The paragraph's words as read."),
    variants: z.array(variant.meta({ id: "ParagraphVariant" })),
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Variants example" });
    const inserted = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Roasting turns green beans brown in minutes." });
    return { script_id: script.script_id, paragraph_id: (inserted.paragraph as { paragraph_id: string }).paragraph_id, count: 2 };
  },
  async check({ graphql }, input) {
    await readScript(graphql.prisma, graphql, input.script_id);
    await paragraphOf(graphql.prisma, input.script_id, input.paragraph_id);
  },
  async run(context, input) {
    const wanted = input.count ?? DEFAULT_VARIANTS;
    const document = await readForPass(context.db, context.graphql, input.script_id);
    const index = document.paragraphs.findIndex((paragraph) => paragraph.paragraph_id === input.paragraph_id);
    // Deleted between the check and the read: the same 404 the check answers.
    if (index < 0) throw new ApiError("not_found", `No paragraph '${input.paragraph_id}' in this script.`, { param: "paragraph_id" });
    const paragraph = document.paragraphs[index]!;
    const before = document.paragraphs[index - 1];
    const after = document.paragraphs[index + 1];
    const focus = [
      before ? `The paragraph before (for context, do not rewrite):\n${paragraphBlock(before)}` : "It opens the script.",
      `The paragraph to rewrite:\n${paragraphBlock({ ...paragraph, locked: false })}`,
      after ? `The paragraph after (for context, do not rewrite):\n${paragraphBlock(after)}` : "It closes the script.",
    ].join("\n\n");
    const { object, model } = await askModel(context, document, "quick", {
      ...passPrompt(
        document,
        "You are a script writer offering alternative versions of one paragraph of a spoken script. Each version says what the paragraph must say, fits between its neighbours, and differs from the others in approach.",
        `Write exactly ${wanted} different versions of the paragraph to rewrite, each with a note on what it does differently.${input.instruction?.trim() ? ` The writer asks: ${input.instruction.trim()}` : ""}`,
        focus,
      ),
      schema: z.object({ variants: z.array(variant).min(1).max(wanted) }),
      schemaName: "paragraph_variants",
    });
    return {
      object: "paragraph_variants" as const,
      script_id: input.script_id,
      revision: document.revision,
      model,
      request: input.request ?? null,
      paragraph_id: paragraph.paragraph_id,
      original: paragraph.text,
      variants: object.variants.slice(0, wanted),
    };
  },
});
