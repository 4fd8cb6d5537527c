// The recordings the running order is measured from: each paragraph's chosen take (catalog 4.10:
// "the chosen take is the one the player, export, subtitle timing and video hand-over read").
// Takes are made by scripts.voice (src/scripts/voice/); a paragraph's `chosen_take_id` names the
// one that plays. This is the one place timing, export, report, retention, narration and the
// hand-over ask. A chosen id whose take is gone (a restore point older than a deletion) is
// ignored: that paragraph is timed from its words.
import type { Tx } from "../db/transaction.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { RecordingTiming } from "./timing.js";

export interface Recording extends RecordingTiming {
  take_id: string;
  paragraph_id: string;
  voice_ref: string;
  storage_key: string;
  content_type: string;
  text_hash: string;
}

/** The chosen take of each paragraph of a script that has one, by paragraph id. */
export async function chosenRecordings(client: PrismaClient | Tx, scriptId: string): Promise<Map<string, Recording>> {
  const rows = await client.$queryRaw<Recording[]>`
    SELECT t.take_id, t.paragraph_id, t.duration_ms, t.text, t.voice_ref, t.storage_key, t.content_type, t.text_hash
    FROM script_paragraphs p JOIN script_takes t ON t.take_id = p.chosen_take_id AND t.paragraph_id = p.paragraph_id
    WHERE p.script_id = ${scriptId}`;
  return new Map(rows.map((row) => [row.paragraph_id, row]));
}
