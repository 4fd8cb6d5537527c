// The recordings the running order is measured from: each paragraph's chosen take (catalog 4.10:
// "the chosen take is the one the player, export, subtitle timing and video hand-over read").
// Takes are made by scripts.voice, which is not built yet, so no paragraph has one and every
// timing is an estimate. This is the one place timing, export, report and retention ask; when
// takes land, it reads them and those actions measure from them with no other change.
import type { Tx } from "../db/transaction.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { RecordingTiming } from "./timing.js";

export interface Recording extends RecordingTiming {
  take_id: string;
}

/** The chosen take of each paragraph of a script that has one, by paragraph id. */
export async function chosenRecordings(_client: PrismaClient | Tx, _scriptId: string): Promise<Map<string, Recording>> {
  return new Map();
}
