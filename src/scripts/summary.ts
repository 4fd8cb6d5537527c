// The script itself (its meta and counters), as the scripts actions answer it; the scripts
// resource shows the same fields plus its heavy ones.
import { z } from "zod";
import { recordSchema } from "../resources/record-schema.js";
import { presentRecord } from "../resources/selection.js";
import { scripts } from "./resource.js";
import type { ScriptRow } from "./document.js";
import { ApiError } from "../errors/api-error.js";
import type { Tx } from "../db/transaction.js";
import type { PrismaClient } from "../generated/prisma/client.js";

const HEAVY = Object.fromEntries(scripts.heavy.map((field) => [field, true])) as Record<string, true>;

export const scriptSummaryShape = recordSchema(scripts).omit(HEAVY).meta({ id: "ScriptSummary", description: "A script's meta and counters (its document: scripts.open)." });

export type ScriptSummary = z.output<typeof scriptSummaryShape>;

export function presentScript(row: ScriptRow): ScriptSummary {
  const record = presentRecord(scripts, row);
  for (const field of scripts.heavy) delete record[field];
  return record as ScriptSummary;
}

/** The `request` the scripts actions take and echo back (its meaning is the caller's: catalog 4.1.9). */
export const echoedRequest = z.json().describe("The `request` the call was sent with, echoed back.").nullable();

/** A paragraph of this script, or 404 at paragraph_id. */
export async function paragraphOf(client: Tx | PrismaClient, scriptId: string, paragraphId: string, param = "paragraph_id") {
  const row = await client.scriptParagraph.findFirst({ where: { script_id: scriptId, paragraph_id: paragraphId } });
  if (!row) throw new ApiError("not_found", `No paragraph '${paragraphId}' in this script.`, { param });
  return row;
}
