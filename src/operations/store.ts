// The state moves of an operation, each one transaction with the credit movement and the family's
// own record and events (OperationKind hooks):
//
//   queued ──claim──► running ──► completed   hold settled to what ran; the rest comes back
//     │                  │  └────► failed      hold released but for what the work had used
//     │                  └─(lease ran out)──► queued again (retaken), or failed worker_lost
//     └──cancel──► canceled                   hold released
//
// Every move is conditional on the state it leaves (and, while running, on holding the lease),
// so a duplicate job, a late worker or a racing sweep changes nothing.
import { Prisma, type PrismaClient } from "../generated/prisma/client.js";
import type { Tx } from "../db/transaction.js";
import { addCredits } from "../credits/ledger.js";
import { newId } from "../ids.js";
import type { OperationFailure, OperationKind, OperationOutcome, OperationRow, OperationServices, ProviderUsage, Settlement } from "./kind.js";

/** Longest error message kept on an operation. */
const MAX_ERROR_MESSAGE = 2000;

export interface NewOperation {
  workspaceId: string;
  subjectId: string;
  input: unknown;
  /** Credits taken from the balance for it (by the action's own spend, in the same transaction). */
  creditsHeld: number;
  action?: string;
  keyId?: string;
  requestId?: string;
}

/** Writes a queued operation in the caller's transaction; the caller enqueues it once committed. */
export async function insertOperation(tx: Tx, kind: OperationKind<unknown>, operation: NewOperation): Promise<OperationRow> {
  const input = kind.input.parse(operation.input);
  return tx.operation.create({
    data: {
      operation_id: newId("operation"),
      workspace_id: operation.workspaceId,
      kind: kind.kind,
      subject_id: operation.subjectId,
      status: "queued",
      credits_held: operation.creditsHeld,
      action: operation.action ?? null,
      key_id: operation.keyId ?? null,
      request_id: operation.requestId ?? null,
      input: input as Prisma.InputJsonValue,
      max_attempts: kind.maxAttempts ?? 2,
    },
  });
}

/** Gives back the part of the hold the operation did not use. */
async function settle(tx: Tx, operation: OperationRow, used: number, reason: "settle" | "release"): Promise<Settlement> {
  const held = operation.credits_held;
  const creditsSpent = Math.max(0, Math.min(held, Math.round(used)));
  const creditsRefunded = held - creditsSpent;
  if (creditsRefunded > 0) {
    await addCredits(tx, {
      workspaceId: operation.workspace_id,
      amount: creditsRefunded,
      actionType: "refund",
      referenceId: operation.subject_id,
      description:
        reason === "settle"
          ? `Unused part of the hold of ${operation.action ?? operation.kind} ${operation.subject_id}`
          : `Release of the hold of ${operation.action ?? operation.kind} ${operation.subject_id} (${operation.status === "queued" ? "canceled" : "failed"})`,
      metadata: { operation_id: operation.operation_id, kind: reason, credits_held: held, credits_spent: creditsSpent },
    });
  }
  return { creditsSpent, creditsRefunded };
}

/**
 * Books what the providers used, and what the operation kept, on the ledger row of its hold (the
 * queuing action's spend, which names the operation).
 */
async function bookUsage(tx: Tx, operation: OperationRow, usage: ProviderUsage, settlement: Settlement): Promise<void> {
  const hold = await tx.creditTransaction.findFirst({
    where: { workspace_id: operation.workspace_id, amount: { lt: 0 }, metadata: { path: ["operation_id"], equals: operation.operation_id } },
    select: { transaction_id: true, metadata: true },
  });
  if (!hold) return; // a free operation, or one queued with a test key's rolled-back spend
  const metadata = { ...(hold.metadata as Record<string, unknown>), credits_spent: settlement.creditsSpent, usage: [...(((hold.metadata as { usage?: unknown[] }).usage) ?? []), ...usage] };
  await tx.creditTransaction.update({ where: { transaction_id: hold.transaction_id }, data: { metadata: metadata as Prisma.InputJsonValue } });
}

/** queued → running under this worker's lease; null when the operation is not (or no longer) queued. */
export async function claimOperation(prisma: PrismaClient, operationId: string, kind: OperationKind<unknown>, workerId: string, leaseMs: number): Promise<OperationRow | null> {
  return prisma.$transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx.operation.updateManyAndReturn({
      where: { operation_id: operationId, status: "queued" },
      data: {
        status: "running",
        attempts: { increment: 1 },
        lease_owner: workerId,
        lease_expires_at: new Date(now.getTime() + leaseMs),
        started_at: now,
        progress: 0,
      },
    });
    if (!row) return null;
    await kind.onStart?.(tx, row);
    return row;
  });
}

/** Extends this worker's lease; false when it no longer holds the operation. */
export async function renewLease(prisma: PrismaClient, operationId: string, workerId: string, leaseMs: number): Promise<boolean> {
  const { count } = await prisma.operation.updateMany({
    where: { operation_id: operationId, status: "running", lease_owner: workerId },
    data: { lease_expires_at: new Date(Date.now() + leaseMs) },
  });
  return count === 1;
}

/** Condition of a move made by the worker holding the operation. */
const heldBy = (operationId: string, workerId: string) => ({ operation_id: operationId, status: "running", lease_owner: workerId });

export async function saveProgress(prisma: PrismaClient, operationId: string, workerId: string, percent: number): Promise<boolean> {
  const { count } = await prisma.operation.updateMany({ where: heldBy(operationId, workerId), data: { progress: percent } });
  return count === 1;
}

export async function saveCheckpoint(prisma: PrismaClient, operationId: string, workerId: string, checkpoint: Record<string, unknown>): Promise<boolean> {
  const { count } = await prisma.operation.updateMany({ where: heldBy(operationId, workerId), data: { checkpoint: checkpoint as Prisma.InputJsonValue } });
  return count === 1;
}

export async function saveSpent(prisma: PrismaClient, operationId: string, workerId: string, credits: number): Promise<boolean> {
  const { count } = await prisma.operation.updateMany({ where: heldBy(operationId, workerId), data: { credits_spent: Math.max(0, Math.round(credits)) } });
  return count === 1;
}

/** running → completed, settled; false when this worker no longer holds the operation. */
export async function completeOperation(
  prisma: PrismaClient,
  operation: OperationRow,
  kind: OperationKind<unknown>,
  workerId: string,
  outcome: OperationOutcome,
  services: OperationServices,
  usage: ProviderUsage = [],
): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const [row] = await tx.operation.updateManyAndReturn({
      where: heldBy(operation.operation_id, workerId),
      data: {
        status: "completed",
        progress: 100,
        result: (outcome.result ?? Prisma.DbNull) as Prisma.InputJsonValue,
        completed_at: new Date(),
        lease_owner: null,
        lease_expires_at: null,
        error_code: null,
        error_message: null,
      },
    });
    if (!row) return false;
    const settlement = await settle(tx, row, outcome.creditsSpent ?? row.credits_held, "settle");
    const [settled] = await tx.operation.updateManyAndReturn({ where: { operation_id: row.operation_id }, data: { credits_spent: settlement.creditsSpent } });
    await bookUsage(tx, row, usage, settlement);
    await kind.onComplete(tx, settled!, settlement, services);
    return true;
  });
}

interface FailCondition {
  /** Only while this worker holds it. */
  workerId?: string;
  /** What the attempt's provider calls used. */
  usage?: ProviderUsage;
  /** Only a running operation whose lease ran out before this time (the sweep). */
  leaseExpiredBefore?: Date;
}

/** running (or queued, for a job that cannot start) → failed, the hold released but for what was used. */
export async function failOperation(
  services: OperationServices,
  operationId: string,
  kind: OperationKind<unknown>,
  failure: OperationFailure,
  condition: FailCondition = {},
): Promise<boolean> {
  const { prisma } = services;
  return prisma.$transaction(async (tx) => {
    const where: Prisma.OperationWhereInput = { operation_id: operationId };
    if (condition.workerId) Object.assign(where, heldBy(operationId, condition.workerId));
    else if (condition.leaseExpiredBefore) Object.assign(where, { status: "running", lease_expires_at: { lt: condition.leaseExpiredBefore } });
    else where.status = { in: ["queued", "running"] };
    const [row] = await tx.operation.updateManyAndReturn({
      where,
      data: {
        status: "failed",
        error_code: failure.code,
        error_message: failure.message.slice(0, MAX_ERROR_MESSAGE),
        completed_at: new Date(),
        lease_owner: null,
        lease_expires_at: null,
      },
    });
    if (!row) return false;
    const settlement = await settle(tx, row, row.credits_spent, "release");
    await bookUsage(tx, row, condition.usage ?? [], settlement);
    await kind.onFail(tx, row, failure, settlement, services);
    return true;
  });
}

/** A running operation whose lease ran out goes back to the queue; false if it changed meanwhile. */
export async function retakeOperation(prisma: PrismaClient, operationId: string, kind: OperationKind<unknown>, leaseExpiredBefore: Date): Promise<OperationRow | null> {
  return prisma.$transaction(async (tx) => {
    const [row] = await tx.operation.updateManyAndReturn({
      where: { operation_id: operationId, status: "running", lease_expires_at: { lt: leaseExpiredBefore } },
      data: { status: "queued", lease_owner: null, lease_expires_at: null },
    });
    if (!row) return null;
    await kind.onRetake?.(tx, row);
    return row;
  });
}

/** queued → canceled in the caller's transaction, the whole hold released; false if it is not queued. */
export async function cancelOperation(tx: Tx, operationId: string, kind: OperationKind<unknown>): Promise<boolean> {
  const [row] = await tx.operation.updateManyAndReturn({
    where: { operation_id: operationId, status: "queued" },
    data: { status: "canceled", completed_at: new Date() },
  });
  if (!row) return false;
  const settlement = await settle(tx, row, 0, "release");
  await kind.onCancel?.(tx, row, settlement);
  return true;
}

/** The latest operation driving a record (a render's, a generation's). */
export function operationOf(client: PrismaClient | Tx, kind: OperationKind<unknown>, subjectId: string): Promise<OperationRow | null> {
  return client.operation.findFirst({ where: { kind: kind.kind, subject_id: subjectId }, orderBy: { created_at: "desc" } });
}
