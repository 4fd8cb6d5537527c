// What every kind of generation (images, media, music through the catalog) shares about its
// record: the stored file its checkpoint and metadata keep, its event, and the move of its status.
import { z } from "zod";
import type { Tx } from "../db/transaction.js";
import type { Prisma } from "../generated/prisma/client.js";
import { recordEvent } from "../outbox/record-event.js";
import type { OperationRow } from "../operations/kind.js";
import { presentRecord } from "../resources/selection.js";
import { generations } from "./resource.js";

/** A stored output as a generation's checkpoint and metadata keep it. */
export const storedFile = z.object({
  key: z.string(),
  content_type: z.string(),
  size_bytes: z.number(),
  width: z.number().nullable(),
  height: z.number().nullable(),
});
/** Records `<type>` with the generation as its object, in the writing transaction. */
export async function generationEvent(tx: Tx, type: string, row: Record<string, unknown> & { workspace_id: string }, extra: Record<string, unknown> = {}) {
  await recordEvent(tx, { workspaceId: row.workspace_id, type, livemode: true, data: { object: presentRecord(generations, row), ...extra } });
}

export async function moveGeneration(tx: Tx, operation: OperationRow, from: string[], data: Prisma.GenerationUpdateManyMutationInput) {
  const [row] = await tx.generation.updateManyAndReturn({ where: { generation_id: operation.subject_id, status: { in: from } }, data });
  return row;
}

