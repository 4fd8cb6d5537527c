// Takes of a paragraph (docs/scripts.md, "Voice and takes"): each an audio file in storage with
// its measured length, the voice that made it, the hash of the words it spoke and word timings.
// A paragraph keeps at most MAX_TAKES; when voicing makes more, the oldest takes that are not the
// chosen one fall off (their files are removed after commit). The chosen take is what the player,
// export, subtitle timing and hand-over read (src/scripts/recordings.ts).
import { createHash } from "node:crypto";
import { z } from "zod";
import type { Tx } from "../../db/transaction.js";
import type { Prisma, PrismaClient } from "../../generated/prisma/client.js";
import type { FileService } from "../../storage/from-config.js";
import type { WordTiming } from "../../providers/types.js";

/** Takes a paragraph keeps; voicing past it drops the oldest ones that are not chosen. */
export const MAX_TAKES = 6;

export type TakeRow = Prisma.ScriptTakeGetPayload<object>;

/** The hash of the words a take speaks: a paragraph whose words hash otherwise has a stale take. */
export function textHash(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

export const wordShape = z.object({ word: z.string(), start: z.number(), end: z.number() }).meta({ id: "ScriptTakeWord", description: "A word and when it is spoken, in seconds from the start of the take." });

export const takeShape = z
  .object({
    take_id: z.string(),
    paragraph_id: z.string(),
    chosen: z.boolean(),
    stale: z.boolean().describe("The paragraph's words changed since this take was recorded."),
    voice_ref: z.string(),
    voice_name: z.string().nullable(),
    model: z.string().describe("The speech model that made it, `<provider>/<model id>`."),
    duration_ms: z.number().int().describe("Measured by ffprobe on the file."),
    content_type: z.string(),
    size_bytes: z.number().int(),
    text_hash: z.string().describe("sha256 of the words it spoke."),
    spoken_text: z.string().describe("What the voice was handed: the words after the spoken style rules."),
    words: z.array(wordShape),
    words_source: z.enum(["provider", "estimated"]).describe("provider: the synthesiser's own timings (espeak-ng's word events, ElevenLabs' timestamps); estimated: spread over the take by word length, where the voice reports none."),
    credits: z.number().int().describe("What the synthesis cost (never refunded)."),
    url: z.string().describe("A signed link to the audio."),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "ScriptTake", description: "A recorded take of a paragraph." });

export type Take = z.output<typeof takeShape>;

export function presentTake(row: TakeRow, files: FileService, paragraph: { text: string; chosen_take_id: string | null }): Take {
  return {
    take_id: row.take_id,
    paragraph_id: row.paragraph_id,
    chosen: paragraph.chosen_take_id === row.take_id,
    stale: row.text_hash !== textHash(paragraph.text),
    voice_ref: row.voice_ref,
    voice_name: row.voice_name,
    model: row.model,
    duration_ms: row.duration_ms,
    content_type: row.content_type,
    size_bytes: row.size_bytes,
    text_hash: row.text_hash,
    spoken_text: row.spoken_text,
    words: Array.isArray(row.words) ? (row.words as unknown as WordTiming[]) : [],
    words_source: row.words_source === "provider" ? "provider" : "estimated",
    credits: row.credits,
    url: files.signedUrl(row.storage_key),
    created_at: row.created_at.toISOString(),
  };
}

/** Takes of the given paragraphs, oldest first, by paragraph id. */
export async function takesByParagraph(client: PrismaClient | Tx, paragraphIds: readonly string[]): Promise<Map<string, TakeRow[]>> {
  const rows = await client.scriptTake.findMany({ where: { paragraph_id: { in: [...paragraphIds] } }, orderBy: [{ created_at: "asc" }, { take_id: "asc" }] });
  const grouped = new Map<string, TakeRow[]>(paragraphIds.map((id) => [id, []]));
  for (const row of rows) grouped.get(row.paragraph_id)?.push(row);
  return grouped;
}

/**
 * Word timings spread over a take when the voice gave none: each word gets a share of the take's
 * length proportional to its characters (plus one for the gap after it).
 */
export function estimatedWords(spokenText: string, durationMs: number): WordTiming[] {
  const words = spokenText.trim() === "" ? [] : spokenText.trim().split(/\s+/u);
  const weights = words.map((word) => word.length + 1);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let clock = 0;
  const seconds = durationMs / 1000;
  return words.map((word, index) => {
    const length = (weights[index]! / total) * seconds;
    const timing = { word, start: round(clock), end: round(clock + length * (word.length / weights[index]!)) };
    clock += length;
    return timing;
  });
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/**
 * Drops a paragraph's oldest takes beyond MAX_TAKES, never the chosen one; the storage keys of the
 * dropped takes, for removal once the transaction committed.
 */
export async function pruneTakes(tx: Tx, paragraphId: string, chosenTakeId: string | null): Promise<string[]> {
  const takes = await tx.scriptTake.findMany({ where: { paragraph_id: paragraphId }, orderBy: [{ created_at: "asc" }, { take_id: "asc" }], select: { take_id: true, storage_key: true } });
  const excess = takes.length - MAX_TAKES;
  if (excess <= 0) return [];
  const dropped = takes.filter((take) => take.take_id !== chosenTakeId).slice(0, excess);
  await tx.scriptTake.deleteMany({ where: { take_id: { in: dropped.map((take) => take.take_id) } } });
  return unsharedKeys(tx, dropped.map((take) => take.storage_key));
}

/**
 * Of the storage keys of takes just deleted, those no other take still plays: a duplicated
 * script's takes share their original's files, so a file goes only with its last take.
 */
export async function unsharedKeys(tx: Tx, keys: readonly string[]): Promise<string[]> {
  if (!keys.length) return [];
  const held = await tx.scriptTake.findMany({ where: { storage_key: { in: [...keys] } }, select: { storage_key: true } });
  const stillPlayed = new Set(held.map((take) => take.storage_key));
  return [...new Set(keys)].filter((key) => !stillPlayed.has(key));
}

/** The voice a paragraph is voiced with: its own, its speaker's, the call's, the script's default. */
export function voiceOf(
  paragraph: { voice_ref: string | null },
  speaker: { voice_ref: string | null } | undefined,
  callVoiceRef: string | undefined,
  scriptDefault: string | null,
): { voice_ref: string; from: "paragraph" | "speaker" | "call" | "script" } | undefined {
  if (paragraph.voice_ref) return { voice_ref: paragraph.voice_ref, from: "paragraph" };
  if (speaker?.voice_ref) return { voice_ref: speaker.voice_ref, from: "speaker" };
  if (callVoiceRef) return { voice_ref: callVoiceRef, from: "call" };
  if (scriptDefault) return { voice_ref: scriptDefault, from: "script" };
  return undefined;
}
