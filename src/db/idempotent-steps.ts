// The write side of crash-safe idempotency (docs/guards.md, "Idempotency"): an idempotent request
// runs as an IdempotentRun (its shape: src/context/request-context.ts; begun by
// src/guards/idempotency.ts), and each of its write transactions (inWriteTransaction) is one step.
// A step commits together with its row in idempotency_steps — the transaction's result,
// serialised — and, for the first step, the idempotency_records row itself. A retry of a request
// that died part-way gets the steps that committed back as results instead of running them again,
// and runs only the rest: exactly the writes one uninterrupted call would have made.
import { deserialize, serialize } from "node:v8";
import { Prisma } from "../generated/prisma/client.js";
import type { Tx } from "./transaction.js";
import { ApiError } from "../errors/api-error.js";
import type { IdempotentRun } from "../context/request-context.js";

export function stepResult(bytes: Uint8Array): unknown {
  return deserialize(bytes);
}

/** Another attempt holds (or held) the key and committed this step first. */
function stepTaken(): ApiError {
  return new ApiError("idempotency_in_progress", "A request with this Idempotency-Key is running or has just written; retry shortly.", {
    param: "Idempotency-Key",
    headers: { "Retry-After": "1" },
  });
}

/**
 * Records a step inside its own transaction: the key's record (if this is its first write) and
 * the step's result. A step another attempt already recorded fails the transaction, so the work
 * done in it is rolled back.
 */
export async function recordStep(tx: Tx, run: IdempotentRun, step: number, result: unknown): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO idempotency_records (key_id, key_hash, fingerprint, request_id)
    VALUES (${run.keyId}, ${run.keyHash}, ${run.fingerprint}, ${run.requestId})
    ON CONFLICT (key_id, key_hash) DO NOTHING`;
  try {
    const bytes = new Uint8Array(serialize(result));
    await tx.idempotencyStep.create({ data: { key_id: run.keyId, key_hash: run.keyHash, step, result: run.seal ? run.seal.sealBytes(bytes) : bytes } });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw stepTaken();
    throw error;
  }
}
