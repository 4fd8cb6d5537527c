// scripts.group_into_chapters (catalog 4.9): the paragraphs grouped into chapters, on the
// script's `model_ref`. The model answers chapters in order, each with a title, a summary and the
// paragraph it starts at; a chapter runs until the next one starts, so every paragraph lands in
// exactly one and the first chapter starts at the first paragraph whatever the model says. The
// grouping replaces the script's chapters, except that a locked paragraph keeps its chapter (the
// chapter stays, and the paragraph is counted as skipped). Logged as `chapter.delete`,
// `chapter.add` and one `paragraph.chapter` entry per paragraph moved.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, idempotencyKey, request } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { readScript } from "../document.js";
import { chapterShape, presentChapter } from "../present.js";
import { byLock, PassWriter, passOutput } from "../writing/apply.js";
import { documentBlock, openIfUnchanged, passBrief, passText, readForPass } from "../writing/pass.js";

/** Chapters a grouping may have (the catalog's bound of `chapter_count`). */
const MAX_CHAPTERS = 50;

export default defineAction({
  name: "scripts.group_into_chapters",
  method: "POST",
  scopes: ["scripts:execute"],
  credits: true,
  input: z.strictObject({
    script_id: id(),
    request: request().optional(),
    idempotency_key: idempotencyKey().optional(),
  }),
  price: { credits: 1, per: "call" },
  weight: 2,
  purpose: "assigns every paragraph to a chapter",
  mode: "model",
  uses: ["text"],
  output: passOutput("script_chapters", {
    chapters: z.array(chapterShape).describe("Every chapter of the script now, in order."),
    chapters_replaced: z.number().int().describe("Chapters the grouping removed."),
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    for (const words of ["Why roast at home?", "You need green beans and a pan.", "Stir until the first crack.", "Let them rest a day."]) {
      await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: words });
    }
    return { script_id: script.script_id };
  },
  async check({ graphql }, input) {
    await readScript(graphql.prisma, graphql, input.script_id);
    if (!(await graphql.prisma.scriptParagraph.count({ where: { script_id: input.script_id } }))) {
      throw new ApiError("invalid_request", "The script has no paragraphs to group.", { param: "script_id", hint: "Write paragraphs first (scripts.draft_paragraphs, scripts.insert_paragraph)." });
    }
  },
  async run({ graphql, db, providers, commit }, input) {
    const document = await readForPass(db, graphql, input.script_id);
    const { locked } = byLock(document.paragraphs);
    const ids = document.paragraphs.map((row) => row.paragraph_id) as [string, ...string[]];
    const { model, text } = passText(providers, graphql, document.script, "document");
    const answer = await text.generateObject({
      system: "You group the paragraphs of a video script into chapters: consecutive runs of paragraphs, each chapter with a short title and a one-sentence summary. Give the id of the paragraph each chapter starts at.",
      prompt: [passBrief(document), `Chapters: as many as the script needs, at most ${Math.min(MAX_CHAPTERS, ids.length)}`, "", documentBlock(document.paragraphs)].join("\n"),
      schema: z.object({
        chapters: z.array(z.object({ title: z.string().min(1).max(200), summary: z.string().max(1_000), starts_at: z.enum(ids) })).min(1).max(Math.min(MAX_CHAPTERS, ids.length)),
      }),
      schemaName: "script_chapters",
    });
    // In document order, one chapter per start, the first starting at the first paragraph.
    const index = new Map(ids.map((paragraphId, at) => [paragraphId, at]));
    const starts = [...answer.object.chapters].sort((a, b) => index.get(a.starts_at)! - index.get(b.starts_at)!).filter((chapter, at, all) => at === 0 || chapter.starts_at !== all[at - 1]!.starts_at);
    const plan = starts.map((chapter, at) => ({ title: chapter.title.trim(), summary: chapter.summary.trim() || null, from: at === 0 ? 0 : index.get(chapter.starts_at)! }));
    return commit(async (tx) => {
      const writer = new PassWriter(tx, await openIfUnchanged(tx, graphql, document, "scripts.group_into_chapters"), input.script_id);
      const kept = new Set(document.paragraphs.filter((row) => row.locked && row.chapter_id).map((row) => row.chapter_id!));
      const old = (await tx.scriptChapter.findMany({ where: { script_id: input.script_id }, orderBy: { position: "asc" } })).filter((row) => !kept.has(row.chapter_id));
      const added = [];
      for (const chapter of plan) added.push(await writer.addChapter({ title: chapter.title, summary: chapter.summary }));
      for (const [at, paragraph] of document.paragraphs.entries()) {
        if (paragraph.locked) continue;
        const chapter = plan.findLastIndex((item) => item.from <= at);
        await writer.setChapter(paragraph, added[chapter]!.chapter_id);
      }
      await writer.removeChapters(old);
      await writer.renumberChapters();
      const { common } = await writer.finish(document, model, input.request, locked);
      const chapters = (await tx.scriptChapter.findMany({ where: { script_id: input.script_id }, orderBy: { position: "asc" } })).map(presentChapter);
      return { object: "script_chapters" as const, ...common, chapters, chapters_replaced: old.length };
    });
  },
});
