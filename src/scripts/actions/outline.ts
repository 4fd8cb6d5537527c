// scripts.outline (catalog 4.9): the script's chapters, each with its summary, and the beats each
// should hit, on the script's `model_ref`; it writes chapters and no paragraph. The new chapters
// follow the chapters that hold paragraphs, which stay as they are; chapters holding no paragraph
// (an earlier outline's) are replaced. Beats are answered, not stored: a chapter keeps its summary.
// Logged as `chapter.delete` / `chapter.add` entries, undone together through the restore point.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, idempotencyKey, integer, prompt, request } from "../../actions/catalog/define.js";
import { readScript } from "../document.js";
import { chapterShape } from "../present.js";
import { PassWriter, passOutput } from "../writing/apply.js";
import { documentBlock, openIfUnchanged, passBrief, passText, readForPass } from "../writing/pass.js";

/** Chapters an outline has when `chapter_count` is not sent: the model decides, up to this. */
const DEFAULT_MAX_CHAPTERS = 12;

export default defineAction({
  name: "scripts.outline",
  method: "POST",
  scopes: ["scripts:execute"],
  credits: true,
  input: z.strictObject({
    script_id: id(),
    instruction: prompt().optional(),
    chapter_count: integer(1, 50).optional(),
    request: request().optional(),
    idempotency_key: idempotencyKey().optional(),
  }),
  price: { credits: 2, per: "call" },
  weight: 2,
  purpose: "writes chapters and returns beats; writes no paragraph",
  mode: "model",
  uses: ["text"],
  output: passOutput("script_outline", {
    chapters: z.array(chapterShape.extend({ beats: z.array(z.string()).describe("What the chapter should hit, in order.") })).describe("The chapters the outline wrote, in order."),
    chapters_replaced: z.number().int().describe("Chapters holding no paragraph that the outline replaced."),
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example", topic: "Roasting coffee at home" });
    return { script_id: script.script_id, chapter_count: 3 };
  },
  async check({ graphql }, input) {
    await readScript(graphql.prisma, graphql, input.script_id);
  },
  async run({ graphql, db, providers, commit }, input) {
    const document = await readForPass(db, graphql, input.script_id);
    const { model, text } = passText(providers, graphql, document.script, "document");
    const max = input.chapter_count ?? DEFAULT_MAX_CHAPTERS;
    const answer = await text.generateObject({
      system: "You outline video scripts: chapters in order, each with a title, a one-sentence summary and the beats it must hit. Follow the house style.",
      prompt: [
        passBrief(document),
        input.chapter_count ? `Chapters: exactly ${input.chapter_count}` : `Chapters: as many as the subject needs, at most ${max}`,
        input.instruction?.trim() ? `Instruction: ${input.instruction.trim()}` : undefined,
        document.paragraphs.length ? `\nWhat is written so far (the outline continues it):\n${documentBlock(document.paragraphs)}` : undefined,
      ].filter((line) => line !== undefined).join("\n"),
      schema: z.object({
        chapters: z.array(z.object({ title: z.string().min(1).max(200), summary: z.string().max(1_000), beats: z.array(z.string().min(1).max(500)).min(1).max(10) })).min(1).max(max),
      }),
      schemaName: "script_outline",
    });
    return commit(async (tx) => {
      const writer = new PassWriter(tx, await openIfUnchanged(tx, graphql, document, "scripts.outline"), input.script_id);
      const held = new Set(document.paragraphs.map((row) => row.chapter_id).filter((chapterId) => chapterId !== null));
      const empty = (await tx.scriptChapter.findMany({ where: { script_id: input.script_id }, orderBy: { position: "asc" } })).filter((row) => !held.has(row.chapter_id));
      await writer.removeChapters(empty);
      const chapters = [];
      for (const chapter of answer.object.chapters) {
        const added = await writer.addChapter({ title: chapter.title.trim(), summary: chapter.summary.trim() || null });
        chapters.push({ ...added, beats: chapter.beats.map((beat) => beat.trim()).filter(Boolean) });
      }
      await writer.renumberChapters();
      const { common } = await writer.finish(document, model, input.request, []);
      const positions = new Map((await tx.scriptChapter.findMany({ where: { script_id: input.script_id }, select: { chapter_id: true, position: true } })).map((row) => [row.chapter_id, row.position]));
      return { object: "script_outline" as const, ...common, chapters: chapters.map((chapter) => ({ ...chapter, position: positions.get(chapter.chapter_id) ?? chapter.position })), chapters_replaced: empty.length };
    });
  },
});
