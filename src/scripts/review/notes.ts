// A reviewer's note as the scripts actions show it: the note (src/scripts/present.ts's shape) and
// where its paragraph now stands.
import { z } from "zod";
import type { Prisma } from "../../generated/prisma/client.js";
import { noteShape, presentNote } from "../present.js";

/** Characters of the paragraph's opening shown beside a note. */
const EXCERPT_CHARACTERS = 80;

export const reviewNoteShape = noteShape
  .extend({
    paragraph_position: z.number().int().nullable().describe("Where the paragraph now stands; null for a note on the whole script or once the paragraph was deleted."),
    paragraph_excerpt: z.string().nullable().describe("The paragraph's opening words, as it now reads."),
  })
  .meta({ id: "ScriptReviewNote", description: "A reviewer's note and the paragraph it is about." });

type NoteRow = Prisma.ScriptNoteGetPayload<object>;

export function excerptOf(text: string): string {
  const flat = text.replace(/\s+/gu, " ").trim();
  return flat.length <= EXCERPT_CHARACTERS ? flat : `${flat.slice(0, EXCERPT_CHARACTERS - 1).trimEnd()}…`;
}

export function presentReviewNote(row: NoteRow, paragraphs: ReadonlyMap<string, { position: number; text: string }>): z.output<typeof reviewNoteShape> {
  const paragraph = row.paragraph_id ? paragraphs.get(row.paragraph_id) : undefined;
  return { ...presentNote(row), paragraph_position: paragraph?.position ?? null, paragraph_excerpt: paragraph ? excerptOf(paragraph.text) : null };
}
