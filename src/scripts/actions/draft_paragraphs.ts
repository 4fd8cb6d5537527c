// scripts.draft_paragraphs (catalog 4.9): a whole draft appended after the existing paragraphs, on
// the script's `model_ref`. The model reads what is written (locked paragraphs included, as
// context) and the chapters with their summaries (scripts.outline), and places each new paragraph
// in one of those chapters (or none when the script has none). Existing paragraphs are not changed.
// Each new paragraph is one `paragraph.insert` entry of the edit log.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, idempotencyKey, prompt, request } from "../../actions/catalog/define.js";
import { paragraphCount } from "../fields.js";
import { readScript } from "../document.js";
import { cleanText, PassWriter, passOutput } from "../writing/apply.js";
import { countLine, draftParagraph, MAX_DRAFT_PARAGRAPHS } from "../writing/draft.js";
import { documentBlock, openIfUnchanged, passBrief, passText, readForPass } from "../writing/pass.js";

export default defineAction({
  name: "scripts.draft_paragraphs",
  method: "POST",
  scopes: ["scripts:execute"],
  credits: true,
  input: z.strictObject({
    script_id: id(),
    instruction: prompt().optional(),
    paragraph_count: paragraphCount().optional(),
    request: request().optional(),
    idempotency_key: idempotencyKey().optional(),
  }),
  price: { credits: 3, per: "call" },
  weight: 2,
  purpose: "appends a whole draft to existing paragraphs",
  mode: "model",
  uses: ["text"],
  output: passOutput("script_draft", {}),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example", topic: "Roasting coffee at home", tone: "friendly" });
    return { script_id: script.script_id, paragraph_count: 3 };
  },
  async check({ graphql }, input) {
    await readScript(graphql.prisma, graphql, input.script_id);
  },
  async run({ graphql, db, providers, commit }, input) {
    const document = await readForPass(db, graphql, input.script_id);
    const chapters = await db.scriptChapter.findMany({ where: { script_id: input.script_id }, orderBy: { position: "asc" } });
    const chapterIds = chapters.map((row) => row.chapter_id);
    const { model, text } = passText(providers, graphql, document.script, "document");
    const item = chapterIds.length ? draftParagraph.extend({ chapter_id: z.enum(chapterIds as [string, ...string[]]).describe("The chapter it belongs to.") }) : draftParagraph;
    const answer = await text.generateObject({
      system: "You draft video scripts: short spoken paragraphs, each with its role, continuing what is written. Follow the house style and every paragraph's instruction.",
      prompt: [
        passBrief(document),
        countLine(input.paragraph_count),
        input.instruction?.trim() ? `Instruction: ${input.instruction.trim()}` : undefined,
        chapters.length ? `\nChapters (place each paragraph in one, in order):\n${chapters.map((row) => `[${row.chapter_id}] ${row.title}${row.summary ? `: ${row.summary}` : ""}`).join("\n")}` : undefined,
        `\nWritten so far (the draft comes after it):\n${documentBlock(document.paragraphs)}`,
      ].filter((line) => line !== undefined).join("\n"),
      schema: z.object({ paragraphs: z.array(item).min(1).max(input.paragraph_count ?? MAX_DRAFT_PARAGRAPHS) }),
      schemaName: "script_draft",
    });
    const known = new Set(chapterIds);
    // A paragraph without a chapter of this script goes to the last chapter (none when there is none).
    const draft = answer.object.paragraphs
      .map((paragraph) => {
        const chapterId = (paragraph as { chapter_id?: string }).chapter_id;
        return { role: paragraph.role, text: cleanText(paragraph.text), chapter_id: chapterId && known.has(chapterId) ? chapterId : (chapterIds.at(-1) ?? null) };
      })
      .filter((paragraph) => paragraph.text !== "");
    return commit(async (tx) => {
      const writer = new PassWriter(tx, await openIfUnchanged(tx, graphql, document, "scripts.draft_paragraphs"), input.script_id);
      await writer.insert(document.paragraphs.length, draft);
      const { common } = await writer.finish(document, model, input.request, []);
      return { object: "script_draft" as const, ...common };
    });
  },
});
