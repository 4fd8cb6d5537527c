// Bringing a restore point back (scripts.restore_snapshot): the script's meta, chapters, cast and
// paragraphs become the copy's, with their ids. Rows are updated in place, created or deleted, so a
// paragraph that survives keeps its id and whatever else refers to it.
import type { Prisma } from "../generated/prisma/client.js";
import { Prisma as PrismaNamespace } from "../generated/prisma/client.js";
import type { Tx } from "../db/transaction.js";
import { META_FIELDS } from "./document.js";

type Row = Record<string, unknown>;

/** The copy a restore point holds (src/scripts/document.ts, takeSnapshot). */
export interface DocumentCopy {
  meta: Record<string, unknown>;
  chapters: Row[];
  speakers: Row[];
  paragraphs: Row[];
}

export function copyOf(document: unknown): DocumentCopy {
  const value = (document ?? {}) as Partial<DocumentCopy>;
  return { meta: value.meta ?? {}, chapters: value.chapters ?? [], speakers: value.speakers ?? [], paragraphs: value.paragraphs ?? [] };
}

const date = (value: unknown) => (typeof value === "string" || value instanceof Date ? new Date(value) : undefined);
const json = (value: unknown) => (value === null || value === undefined ? PrismaNamespace.DbNull : (value as Prisma.InputJsonValue));

/** Makes the script's document the copy's; the number of paragraphs it now has. */
export async function restoreCopy(tx: Tx, scriptId: string, copy: DocumentCopy): Promise<number> {
  const meta = Object.fromEntries(META_FIELDS.filter((field) => field in copy.meta).map((field) => [field, copy.meta[field] ?? null]));
  await tx.script.update({ where: { script_id: scriptId }, data: meta });

  // The cast. Names are unique in a script: the current speakers give theirs up first, so two
  // speakers that swapped names since come back without a collision.
  const keptSpeakers = copy.speakers.map((row) => row.speaker_id as string);
  await tx.$executeRaw`UPDATE script_speakers SET name = chr(1) || speaker_id WHERE script_id = ${scriptId}`;
  await tx.scriptSpeaker.deleteMany({ where: { script_id: scriptId, speaker_id: { notIn: keptSpeakers } } });
  for (const row of copy.speakers) {
    const fields = {
      position: row.position as number,
      name: row.name as string,
      persona: (row.persona as string | null) ?? null,
      is_base: Boolean(row.is_base),
      voice_ref: (row.voice_ref as string | null) ?? null,
      voice_name: (row.voice_name as string | null) ?? null,
      face_url: (row.face_url as string | null) ?? null,
      face_aspect: (row.face_aspect as string | null) ?? null,
    };
    await tx.scriptSpeaker.upsert({
      where: { speaker_id: row.speaker_id as string },
      create: { speaker_id: row.speaker_id as string, script_id: scriptId, ...fields, created_at: date(row.created_at) },
      update: fields,
    });
  }

  const keptChapters = copy.chapters.map((row) => row.chapter_id as string);
  await tx.scriptChapter.deleteMany({ where: { script_id: scriptId, chapter_id: { notIn: keptChapters } } });
  for (const row of copy.chapters) {
    const fields = { position: row.position as number, title: row.title as string, summary: (row.summary as string | null) ?? null };
    await tx.scriptChapter.upsert({
      where: { chapter_id: row.chapter_id as string },
      create: { chapter_id: row.chapter_id as string, script_id: scriptId, ...fields, created_at: date(row.created_at) },
      update: fields,
    });
  }

  const keptParagraphs = copy.paragraphs.map((row) => row.paragraph_id as string);
  await tx.scriptParagraph.deleteMany({ where: { script_id: scriptId, paragraph_id: { notIn: keptParagraphs } } });
  for (const row of copy.paragraphs) {
    const fields = {
      position: row.position as number,
      chapter_id: (row.chapter_id as string | null) ?? null,
      role: row.role as string,
      text: row.text as string,
      word_count: row.word_count as number,
      speaker_id: (row.speaker_id as string | null) ?? null,
      locked: Boolean(row.locked),
      note: (row.note as string | null) ?? null,
      visual: json(row.visual),
      playback_rate: (row.playback_rate as number | null) ?? null,
    };
    await tx.scriptParagraph.upsert({
      where: { paragraph_id: row.paragraph_id as string },
      create: { paragraph_id: row.paragraph_id as string, script_id: scriptId, ...fields, created_at: date(row.created_at) },
      update: fields,
    });
  }
  return copy.paragraphs.length;
}
