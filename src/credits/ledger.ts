// The credit ledger (contract 4.1, 6, 7): a workspace balance that never goes negative and an
// append-only list of movements (credit_transactions). A spend is one conditional UPDATE in the
// caller's transaction, so parallel spends cannot overdraw and a spend commits or rolls back with
// the records it pays for.
import { Prisma, type PrismaClient } from "../generated/prisma/client.js";
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
      hint: `An operator of the service adds credits with \`npm run account -- credits grant ${workspaceId} <credits> --reason "..."\` (docs/credits.md, "Adding credits"); then retry.`,
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

/** The workspace's balance now (client may be a transaction). */
export async function creditBalance(client: PrismaClient | Tx, workspaceId: string): Promise<number> {
  const workspace = await client.workspace.findUniqueOrThrow({ where: { workspace_id: workspaceId }, select: { credit_balance: true } });
  return workspace.credit_balance;
}

/** Takes credits from the balance, or throws InsufficientCreditsError leaving it untouched. */
export async function spendCredits(tx: Tx, movement: Movement): Promise<MovementResult> {
  assertWholePositive(movement.amount);
  let balanceAfter: number;
  try {
    // One conditional UPDATE ... RETURNING: Postgres re-checks the balance after waiting on a
    // concurrent spend's row lock, so parallel spends cannot overdraw.
    const workspace = await tx.workspace.update({
      where: { workspace_id: movement.workspaceId, credit_balance: { gte: movement.amount } },
      data: { credit_balance: { decrement: movement.amount } },
      select: { credit_balance: true },
    });
    balanceAfter = workspace.credit_balance;
  } catch (error) {
    if (!isRecordNotFound(error)) throw error;
    throw new InsufficientCreditsError(movement.workspaceId, movement.actionType, movement.amount, await creditBalance(tx, movement.workspaceId));
  }
  return { transactionId: await writeTransaction(tx, movement, -movement.amount, balanceAfter), balanceAfter };
}

/** P2025: the filtered update matched no row (here: the balance was too low). */
function isRecordNotFound(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2025";
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
 * Emits credits.low for a refused spend, in the caller's transaction: not the refused call's own,
 * which rolls back. Only live calls spend, so the event is always live.
 */
export async function recordCreditsLow(tx: Tx, error: InsufficientCreditsError): Promise<void> {
  await recordEvent(tx, {
    workspaceId: error.workspaceId,
    type: "credits.low",
    livemode: true,
    data: {
      object: {
        object: "credits_low",
        action_type: error.actionType,
        required: error.required,
        available: error.available,
        shortfall: error.required - error.available,
      },
    },
  });
}
