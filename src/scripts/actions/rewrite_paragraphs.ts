// scripts.rewrite_paragraphs (catalog 4.9): one model call per paragraph named, on the script's
// `quick_model_ref`. Each call carries the brief every writing prompt carries, the paragraph's
// margin note, its neighbours (as context, unchanged), and what to do: `operation` (a label of the
// caller's: shorten, expand, simplify, …), `instruction`, `target_words`, `target_language`.
// Locked paragraphs are skipped and counted, and not paid for (`ran`). Each changed paragraph is
// one `paragraph.text` entry of the edit log; 409 `conflict` when the script changed meanwhile.
import { eachSideBySide } from "../../side-by-side.js";
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, idempotencyKey, integer, label, language, paragraphIds, prompt, request } from "../../actions/catalog/define.js";
import { readScript } from "../document.js";
import { paragraphsOf } from "../paragraphs.js";
import { cleanText, PassWriter, passOutput } from "../writing/apply.js";
import { openIfUnchanged, paragraphBlock, passBrief, passText, readForPass } from "../writing/pass.js";

/** Model calls of one rewrite running at once. */
const PARALLEL_CALLS = 4;

export default defineAction({
  name: "scripts.rewrite_paragraphs",
  method: "POST",
  scopes: ["scripts:execute"],
  credits: true,
  input: z.strictObject({
    script_id: id(),
    paragraph_ids: paragraphIds(),
    instruction: prompt().optional(),
    operation: label().optional(),
    target_words: integer(1, 2000).optional(),
    target_language: language().optional(),
    request: request().optional(),
    idempotency_key: idempotencyKey().optional(),
  }),
  price: { credits: 1, per: "paragraph", unit_field: "paragraph_ids" },
  weight: 2,
  purpose: "one model call per paragraph",
  mode: "model",
  uses: ["text"],
  output: passOutput("script_rewrite", {}),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Coffee is a drink that a lot of people like to drink in the morning." });
    return { script_id: script.script_id, paragraph_ids: [(paragraph.paragraph as { paragraph_id: string }).paragraph_id], operation: "shorten" };
  },
  async check({ graphql }, input) {
    await readScript(graphql.prisma, graphql, input.script_id);
    await paragraphsOf(graphql.prisma, input.script_id, input.paragraph_ids);
  },
  async run({ graphql, db, providers, commit, ran }, input) {
    const document = await readForPass(db, graphql, input.script_id);
    const wanted = new Set(input.paragraph_ids);
    const targets = document.paragraphs.filter((row) => wanted.has(row.paragraph_id));
    const open = targets.filter((row) => !row.locked);
    const locked = targets.filter((row) => row.locked).map((row) => row.paragraph_id);
    const { model, text } = passText(providers, graphql, document.script, "quick");
    const brief = passBrief(document, { language: input.target_language });
    const task = [
      input.operation ? `Operation: ${input.operation}` : undefined,
      input.instruction?.trim() ? `Instruction: ${input.instruction.trim()}` : undefined,
      input.target_words ? `Length: about ${input.target_words} words` : undefined,
      input.target_language ? `Write it in: ${input.target_language}` : undefined,
    ].filter((line) => line !== undefined);
    const rewritten = new Map<string, string>();
    const rewriteOne = async (paragraph: (typeof open)[number]) => {
      const index = document.paragraphs.indexOf(paragraph);
      const before = document.paragraphs[index - 1];
      const after = document.paragraphs[index + 1];
      const answer = await text.generateObject({
        system: "You rewrite one paragraph of a video script, to be spoken aloud. Do what is asked, keep its facts, follow the house style and the paragraph's instruction. Answer only the new words of that paragraph.",
        prompt: [
          brief,
          ...task,
          before ? `\nThe paragraph before (context, do not rewrite):\n${before.text}` : undefined,
          after ? `\nThe paragraph after (context, do not rewrite):\n${after.text}` : undefined,
          "\nRewrite this paragraph:",
          paragraphBlock(paragraph),
        ].filter((line) => line !== undefined).join("\n"),
        schema: z.object({ text: z.string().min(1).max(20_000) }),
        schemaName: "paragraph_rewrite",
      });
      if (cleanText(answer.object.text)) rewritten.set(paragraph.paragraph_id, cleanText(answer.object.text));
    };
    // A failed call ends the pass: the other workers take no new paragraph.
    await eachSideBySide(open, PARALLEL_CALLS, rewriteOne);
    // Paid per paragraph the model ran on: locked ones were not.
    ran(open.length);
    return commit(async (tx) => {
      const writer = new PassWriter(tx, await openIfUnchanged(tx, graphql, document, "scripts.rewrite_paragraphs"), input.script_id);
      for (const paragraph of open) {
        const words = rewritten.get(paragraph.paragraph_id);
        if (words !== undefined) await writer.setText(paragraph, words);
      }
      const { common } = await writer.finish(document, model, input.request, locked);
      return { object: "script_rewrite" as const, ...common };
    });
  },
});
