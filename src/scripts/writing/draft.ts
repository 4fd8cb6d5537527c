// Drafts: paragraphs a pass writes from nothing (scripts.write_from_source, write_from_link,
// draft_paragraphs), each with its role. Without `paragraph_count` the model decides how many, up
// to the catalog's bound of 200; with it, exactly that many are asked for and fewer are accepted.
import { z } from "zod";
import { paragraphRole } from "../../actions/catalog/define.js";
import type { ParagraphRow } from "../paragraphs.js";
import { cleanText, replacedAt, type PassWriter } from "./apply.js";
import { documentBlock } from "./pass.js";

export const MAX_DRAFT_PARAGRAPHS = 200;

export const draftParagraph = z.object({
  role: paragraphRole().describe("hook, intro, body, transition, example, punchline, cta or outro."),
  text: z.string().min(1).max(20_000).describe("The words, to be spoken."),
});

export function draftSchema(count: number | undefined) {
  return z.array(draftParagraph).min(1).max(count ?? MAX_DRAFT_PARAGRAPHS);
}

/** The line of a prompt saying how many paragraphs to write. */
export function countLine(count: number | undefined): string {
  return count ? `Paragraphs: exactly ${count}` : "Paragraphs: as many as the material needs (short paragraphs, one idea each)";
}

/** What a replacing draft is told of the locked paragraphs, which stay (with their margin notes). */
export function lockedContext(paragraphs: readonly ParagraphRow[]): string | undefined {
  const locked = paragraphs.filter((row) => row.locked);
  return locked.length ? `These locked paragraphs stay where they are; write around them:\n${documentBlock(locked)}` : undefined;
}

/** Paragraphs the model answered, cleaned; empty ones dropped. */
export function cleanDraft(paragraphs: readonly { role: string; text: string }[]): { role: string; text: string }[] {
  return paragraphs.map((row) => ({ role: row.role, text: cleanText(row.text) })).filter((row) => row.text !== "");
}

/**
 * Writes a draft: with `replace`, the unlocked paragraphs are deleted and the draft takes the
 * place of the first of them (locked ones stay, above or below it); otherwise it is appended.
 */
export async function writeDraft(writer: PassWriter, paragraphs: readonly ParagraphRow[], draft: readonly { role: string; text: string; chapter_id?: string | null }[], options: { replace: boolean }): Promise<void> {
  if (!options.replace) {
    await writer.insert(paragraphs.length, draft);
    return;
  }
  const at = replacedAt(paragraphs);
  await writer.remove(paragraphs.filter((row) => !row.locked));
  // After the deletion, the locked paragraphs above the first unlocked one are 0 … at-1.
  await writer.insert(at, draft);
}
