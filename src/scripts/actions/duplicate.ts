// scripts.duplicate (catalog 4.8): a new script holding a copy of the words, structure (meta,
// chapters), cast and recordings, and the sources the words rest on; every copied row gets a new
// id. Not copied: the credit meter (what was spent on the original stays on the original's
// ledger entries), its history (restore points, edit log), review notes, the review link and the
// video made from it. `title` names the copy, by default "<title> (copy)".
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, text } from "../../actions/catalog/define.js";
import { Prisma } from "../../generated/prisma/client.js";
import { newId } from "../../ids.js";
import type { Tx } from "../../db/transaction.js";
import { loadDocument, lockScript, META_FIELDS } from "../document.js";
import { chapterShape, presentChapter, presentSpeaker, speakerShape } from "../present.js";
import { presentScript, scriptSummaryShape } from "../summary.js";

const COPY_SUFFIX = " (copy)";
const TITLE_MAX = 500;

/**
 * The takes of the original's paragraphs, as takes of the copy's (new ids, the same files: a file
 * is removed only with the last take that plays it), each copy's chosen take chosen again. Clips
 * are not copied: a copy is filmed afresh.
 */
async function copyRecordings(tx: Tx, scriptId: string, paragraphIds: ReadonlyMap<string, string>, paragraphs: readonly { paragraph_id: string; chosen_take_id: string | null }[]) {
  const takes = await tx.scriptTake.findMany({ where: { paragraph_id: { in: [...paragraphIds.keys()] } } });
  if (!takes.length) return;
  const takeIds = new Map(takes.map((take) => [take.take_id, newId("script_take")]));
  await tx.scriptTake.createMany({
    data: takes.map((take) => ({
      ...take,
      take_id: takeIds.get(take.take_id)!,
      script_id: scriptId,
      paragraph_id: paragraphIds.get(take.paragraph_id)!,
      words: take.words as Prisma.InputJsonValue,
    })),
  });
  for (const paragraph of paragraphs) {
    const chosen = paragraph.chosen_take_id && takeIds.get(paragraph.chosen_take_id);
    if (chosen) await tx.scriptParagraph.update({ where: { paragraph_id: paragraphIds.get(paragraph.paragraph_id)! }, data: { chosen_take_id: chosen } });
  }
}

export default defineAction({
  name: "scripts.duplicate",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    title: text(TITLE_MAX).optional(),
  }),
  weight: 1,
  purpose: "copies words, structure, cast and recordings; the credit meter is not copied",
  output: scriptSummaryShape.extend({
    duplicated_from: z.string().describe("The script copied."),
    speakers: z.array(speakerShape).describe("The copy's cast."),
    chapters: z.array(chapterShape).describe("The copy's chapters."),
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Words to copy." });
    return { script_id: script.script_id, title: "Example, take two" };
  },
  async run({ tx, graphql }, input) {
    // Locked while it is read, so the copy is of one state of it (a write in between waits).
    const source = await lockScript(tx, graphql, input.script_id);
    const document = await loadDocument(tx, input.script_id);
    const sources = await tx.scriptSource.findMany({ where: { script_id: input.script_id }, orderBy: { created_at: "asc" } });
    const title = input.title ?? (source.title === null ? null : `${source.title.slice(0, TITLE_MAX - COPY_SUFFIX.length)}${COPY_SUFFIX}`);
    const scriptId = newId("script");
    const meta = Object.fromEntries(META_FIELDS.map((field) => [field, source[field]]));
    await tx.script.create({ data: { ...meta, title, script_id: scriptId, workspace_id: graphql.auth.workspaceId, word_count: source.word_count, paragraph_count: source.paragraph_count } });

    const chapterIds = new Map(document.chapters.map((row) => [row.chapter_id, newId("script_chapter")]));
    const speakerIds = new Map(document.speakers.map((row) => [row.speaker_id, newId("script_speaker")]));
    if (document.chapters.length) {
      await tx.scriptChapter.createMany({ data: document.chapters.map((row) => ({ chapter_id: chapterIds.get(row.chapter_id)!, script_id: scriptId, position: row.position, title: row.title, summary: row.summary })) });
    }
    await tx.scriptSpeaker.createMany({
      data: document.speakers.map((row) => ({
        speaker_id: speakerIds.get(row.speaker_id)!,
        script_id: scriptId,
        position: row.position,
        name: row.name,
        persona: row.persona,
        is_base: row.is_base,
        voice_ref: row.voice_ref,
        voice_name: row.voice_name,
        face_url: row.face_url,
        face_aspect: row.face_aspect,
      })),
    });
    const paragraphIds = new Map(document.paragraphs.map((row) => [row.paragraph_id, newId("script_paragraph")]));
    if (document.paragraphs.length) {
      await tx.scriptParagraph.createMany({
        data: document.paragraphs.map((row) => ({
          paragraph_id: paragraphIds.get(row.paragraph_id)!,
          script_id: scriptId,
          position: row.position,
          chapter_id: row.chapter_id ? chapterIds.get(row.chapter_id)! : null,
          role: row.role,
          text: row.text,
          word_count: row.word_count,
          speaker_id: row.speaker_id ? speakerIds.get(row.speaker_id)! : null,
          locked: row.locked,
          note: row.note,
          visual: row.visual === null ? Prisma.DbNull : (row.visual as Prisma.InputJsonValue),
          playback_rate: row.playback_rate,
          voice_ref: row.voice_ref,
        })),
      });
    }
    await copyRecordings(tx, scriptId, paragraphIds, document.paragraphs);
    if (sources.length) {
      await tx.scriptSource.createMany({
        data: sources.map((row) => ({ source_id: newId("script_source"), script_id: scriptId, kind: row.kind, url: row.url, title: row.title, snippet: row.snippet, excerpt: row.excerpt, status: row.status, created_at: row.created_at })),
      });
    }
    const copy = await loadDocument(tx, scriptId);
    return { ...presentScript(copy.script), duplicated_from: input.script_id, speakers: copy.speakers.map(presentSpeaker), chapters: copy.chapters.map(presentChapter) };
  },
});
