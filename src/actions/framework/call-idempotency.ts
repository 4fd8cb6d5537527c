// The per-call `idempotency_key` input of model actions (catalog rule 4.1.9; docs/actions.md):
// the same key with the same input within 24 hours returns the stored answer, spends nothing and
// calls no provider. The record lives in PostgreSQL (action_call_results): claimed before any
// credit is held, its answer written in the call's final transaction, so a crash after the work
// committed can never make the retry run it a second time.
import { createHash } from "node:crypto";
import { Prisma, type PrismaClient } from "../../generated/prisma/client.js";
import type { Tx } from "../../db/transaction.js";
import { ApiError } from "../../errors/api-error.js";

/** How long an answer is kept (contract 8: the idempotency window). */
const WINDOW_MS = 24 * 3_600_000;
/** A claim older than this whose call never finished (its process died) may be taken over. */
const ABANDONED_AFTER_MS = 15 * 60_000;

export interface CallKey {
  workspaceId: string;
  action: string;
  key: string;
  inputHash: string;
}

/** JSON with sorted keys, so the same input always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function callKeyOf(workspaceId: string, action: string, input: Record<string, unknown>): CallKey | undefined {
  const key = input.idempotency_key;
  if (typeof key !== "string") return undefined;
  const { idempotency_key: _key, ...rest } = input;
  return { workspaceId, action, key, inputHash: createHash("sha256").update(canonical(rest)).digest("hex") };
}

const idOf = (call: CallKey) => ({ workspace_id_action_idempotency_key: { workspace_id: call.workspaceId, action: call.action, idempotency_key: call.key } });

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/**
 * Claims the key for this call; returns the stored answer when a finished call holds it. Throws
 * 409 idempotency_conflict for another input, 409 idempotency_in_progress while the first runs.
 */
export async function claimCallKey(prisma: PrismaClient, call: CallKey): Promise<{ replay: Record<string, unknown> } | { claimed: true }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await prisma.actionCallResult.create({
        data: {
          workspace_id: call.workspaceId,
          action: call.action,
          idempotency_key: call.key,
          input_hash: call.inputHash,
          status: "running",
          expires_at: new Date(Date.now() + WINDOW_MS),
        },
      });
      return { claimed: true };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const existing = await prisma.actionCallResult.findUnique({ where: idOf(call) });
    if (!existing) continue; // released meanwhile: claim again
    const expired = existing.expires_at.getTime() <= Date.now();
    const abandoned = existing.status === "running" && Date.now() - existing.created_at.getTime() > ABANDONED_AFTER_MS;
    if (expired || abandoned) {
      await prisma.actionCallResult.deleteMany({ where: { ...idOf(call).workspace_id_action_idempotency_key, created_at: existing.created_at } });
      continue;
    }
    if (existing.input_hash !== call.inputHash) {
      throw new ApiError("idempotency_conflict", `idempotency_key '${call.key}' was used with another input for ${call.action}.`, {
        param: "idempotency_key",
        hint: "Use a new idempotency_key for a different call.",
      });
    }
    if (existing.status !== "completed" || !existing.result) {
      throw new ApiError("idempotency_in_progress", `The first call with idempotency_key '${call.key}' is still running.`, { param: "idempotency_key" });
    }
    return { replay: existing.result as Record<string, unknown> };
  }
  throw new ApiError("idempotency_in_progress", `idempotency_key '${call.key}' is contended; retry.`, { param: "idempotency_key" });
}

/** Stores the answer, in the call's final transaction. */
export async function storeCallResult(tx: Tx, call: CallKey, result: Record<string, unknown>): Promise<void> {
  await tx.actionCallResult.update({ where: idOf(call), data: { status: "completed", result: result as Prisma.InputJsonValue } });
}

/** Frees the key of a call that failed, so that a retry runs. */
export async function releaseCallKey(prisma: PrismaClient, call: CallKey): Promise<void> {
  await prisma.actionCallResult.deleteMany({ where: { ...idOf(call).workspace_id_action_idempotency_key, status: "running" } });
}
