// The credit ledger (contract 4.1, 6, 7): a workspace balance that never goes negative and an
// append-only list of movements (credit_transactions). A spend is one conditional UPDATE in the
// caller's transaction, so parallel spends cannot overdraw and a spend commits or rolls back with
// the records it pays for.
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Prisma } from "../generated/prisma/client.js";
import type { Tx } from "../db/transaction.js";
import { ApiError } from "../errors/api-error.js";
import { newId } from "../ids.js";
import { recordEvent } from "../outbox/record-event.js";
import { currentRequestContext } from "../context/request-context.js";

export interface Movement {
  workspaceId: string;
  /** Whole credits, > 0. */
  amount: number;
  /** What moved them: the action name (renders.create), grant, refund, ... */
  actionType: string;
  keyId?: string;
  referenceId?: string;
  description?: string;
  metadata?: Record<string, unknown>;
}

export interface MovementResult {
  transactionId: string;
  balanceAfter: number;
}

/** Thrown by spendCredits; carries what the client needs and what credits.low reports. */
export class InsufficientCreditsError extends ApiError {
  constructor(readonly workspaceId: string, readonly actionType: string, readonly required: number, readonly available: number) {
    super("insufficient_credits", `This call needs ${required} credits; the workspace has ${available}.`, {
      details: { required, available, shortfall: required - available, action_type: actionType },
      hint: "Add credits to the workspace, then retry.",
    });
  }
}

function assertWholePositive(amount: number): void {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error(`A credit movement is a positive whole number, got ${amount}`);
}

async function writeTransaction(tx: Tx, movement: Movement, signedAmount: number, balanceAfter: number): Promise<string> {
  const transactionId = newId("credit_transaction");
  await tx.creditTransaction.create({
    data: {
      transaction_id: transactionId,
      workspace_id: movement.workspaceId,
      action_type: movement.actionType,
      amount: signedAmount,
      balance_after: balanceAfter,
      key_id: movement.keyId ?? null,
      reference_id: movement.referenceId ?? null,
      description: movement.description ?? null,
      metadata: (movement.metadata ?? undefined) as Prisma.InputJsonValue | undefined,
      request_id: currentRequestContext()?.requestId ?? null,
    },
  });
  return transactionId;
}

/** Takes credits from the balance, or throws InsufficientCreditsError leaving it untouched. */
export async function spendCredits(tx: Tx, movement: Movement): Promise<MovementResult> {
  assertWholePositive(movement.amount);
  const updated = await tx.workspace.updateMany({
    where: { workspace_id: movement.workspaceId, credit_balance: { gte: movement.amount } },
    data: { credit_balance: { decrement: movement.amount } },
  });
  const workspace = await tx.workspace.findUniqueOrThrow({ where: { workspace_id: movement.workspaceId }, select: { credit_balance: true } });
  if (updated.count === 0) throw new InsufficientCreditsError(movement.workspaceId, movement.actionType, movement.amount, workspace.credit_balance);
  return { transactionId: await writeTransaction(tx, movement, -movement.amount, workspace.credit_balance), balanceAfter: workspace.credit_balance };
}

/** Adds credits (grants, purchases, refunds). */
export async function addCredits(tx: Tx, movement: Movement): Promise<MovementResult> {
  assertWholePositive(movement.amount);
  const workspace = await tx.workspace.update({
    where: { workspace_id: movement.workspaceId },
    data: { credit_balance: { increment: movement.amount } },
    select: { credit_balance: true },
  });
  return { transactionId: await writeTransaction(tx, movement, movement.amount, workspace.credit_balance), balanceAfter: workspace.credit_balance };
}

/**
 * Emits credits.low for a refused spend. It runs in a transaction of its own, since the refused
 * call's transaction rolls back.
 */
export async function recordCreditsLow(prisma: PrismaClient, error: InsufficientCreditsError, livemode: boolean): Promise<void> {
  await prisma.$transaction((tx) =>
    recordEvent(tx, {
      workspaceId: error.workspaceId,
      type: "credits.low",
      livemode,
      data: {
        object: {
          object: "credits_low",
          action_type: error.actionType,
          required: error.required,
          available: error.available,
          shortfall: error.required - error.available,
        },
      },
    }),
  );
}
