// Runs one action call (contract document 2, 4.1; docs/actions.md): validate the input, count its
// weight against the rate windows, check the capabilities it needs, price it, then run it in its
// mode:
// - "transaction": the work, the credit spend (or the hold of the operation it queues) and
//   action.completed commit together; a test key runs the same code and the transaction rolls back.
// - "model": provider calls never run inside a transaction. The credits are held first (one
//   transaction), the handler reads and calls providers, then commits its writes in one
//   transaction that also settles the hold to what ran, records the providers' usage on the
//   ledger entry and action.completed. A failure gives the hold back. A test key gets a quote.
// A failure records action.failed (with credits.low for a shortfall) in a transaction of its own.
import type { GraphQLContext } from "../../graphql/context.js";
import { ApiError } from "../../errors/api-error.js";
import { toApiError } from "../../errors/envelope.js";
import { inWriteTransaction, type Tx } from "../../db/transaction.js";
import { recordEvent } from "../../outbox/record-event.js";
import { addCredits, creditBalance, InsufficientCreditsError, recordCreditsLow, spendCredits, type MovementResult } from "../../credits/ledger.js";
import { chargeWeight } from "../../guards/weights.js";
import { currentRequestContext } from "../../context/request-context.js";
import { logger } from "../../logger.js";
import { insertOperation } from "../../operations/store.js";
import { enqueueOperation } from "../../operations/worker.js";
import type { OperationRow } from "../../operations/kind.js";
import type { CallMeta } from "../../providers/types.js";
import { recordingUsage } from "../../providers/recording.js";
import type { Prisma } from "../../generated/prisma/client.js";
import type { ActionDefinition } from "../catalog.js";
import type { CallProviders, LiveAction, ModelContext, TransactionContext } from "./action.js";
import { costOfUnits, priceOf, unitsOf } from "./pricing.js";
import { parseActionInput } from "./input.js";
import { callKeyOf, claimCallKey, releaseCallKey, storeCallResult, type CallKey } from "./call-idempotency.js";
import type { CreditReport } from "./outputs.js";
import { checkedOutput } from "./output-check.js";

export async function recordFailure(context: GraphQLContext, action: ActionDefinition, error: ApiError): Promise<void> {
  const request = currentRequestContext();
  if (request) request.actionReached = true;
  if (!context.auth.livemode) return; // test mode writes nothing, failures included
  await context.prisma.$transaction(async (tx) => {
    if (error instanceof InsufficientCreditsError) await recordCreditsLow(tx, error);
    await recordEvent(tx, actionCallEvent(context, action.name, "action.failed", { error: { code: error.code, type: error.type, status: error.status, message: error.message } }));
  });
}

/** What the action.failed of a call refused before its action names (the envelope's error). */
export interface RefusalSummary {
  code: string;
  type: string;
  status: number;
  message: string;
}

/**
 * action.failed of a call refused before it reached its action (a wrong verb, a body that is not
 * JSON, a spent rate window, a reused Idempotency-Key, an action name the catalog lacks): it is
 * still an action call that returned an error (contract 6). Test keys write nothing.
 */
export async function recordRefusedCall(context: Pick<GraphQLContext, "prisma" | "auth" | "requestId">, actionName: string, error: RefusalSummary): Promise<void> {
  if (!context.auth.livemode) return;
  await context.prisma.$transaction((tx) => recordEvent(tx, actionCallEvent(context, actionName, "action.failed", { error })));
}

/** The `action.completed` / `action.failed` event of a call (payloads in src/outbox/event-catalog.ts). */
function actionCallEvent(context: Pick<GraphQLContext, "auth" | "requestId">, actionName: string, type: "action.completed" | "action.failed", outcome: Record<string, unknown>) {
  return {
    workspaceId: context.auth.workspaceId,
    type,
    livemode: context.auth.livemode,
    data: {
      object: { object: "action_call", action: actionName, request_id: context.requestId, key_id: context.auth.keyId, livemode: context.auth.livemode, ...outcome },
    },
  };
}

function completedEvent(context: GraphQLContext, action: ActionDefinition, creditsSpent: number, result: Record<string, unknown>) {
  return actionCallEvent(context, action.name, "action.completed", { credits_spent: creditsSpent, result_object: typeof result.object === "string" ? result.object : null });
}

/** Refuses a call the balance cannot pay for before doing any of its work. */
async function assertAffordable(context: GraphQLContext, action: ActionDefinition, cost: number): Promise<void> {
  // A call resumed after a crash (Idempotency-Key, a retaken flow node) whose next write committed
  // has paid already: that write is the call's spend or hold, given back instead of made again.
  const resumed = currentRequestContext()?.idempotency;
  if (resumed?.committed.has(resumed.nextStep)) return;
  const balance = await creditBalance(context.prisma, context.auth.workspaceId);
  if (balance < cost) throw new InsufficientCreditsError(context.auth.workspaceId, action.name, cost, balance);
  // Counted only once the balance can pay: a refused call must not use up the credits quota.
  await currentRequestContext()?.meter?.chargeCredits(cost);
}

/** Every capability the action uses must have a model here; otherwise a 400 naming the setting. */
function assertCapabilities(context: GraphQLContext, action: LiveAction): void {
  for (const capability of action.uses ?? []) context.services.providers.get(capability);
}

export async function runAction(context: GraphQLContext, action: LiveAction, rawInput: unknown): Promise<Record<string, unknown>> {
  try {
    const input = parseActionInput(action, rawInput);
    // Heavy actions count more than one unit; spending ones also count against the credits budget.
    await chargeWeight(action.weight, { spendsCredits: action.credits });
    if (!context.auth.livemode && action.testMode === "unsupported") {
      throw new ApiError("test_mode_unsupported", `${action.name} cannot be simulated with a test key: its cost and effects depend on work it would have to do.`);
    }
    assertCapabilities(context, action);
    await action.check?.({ graphql: context, livemode: context.auth.livemode }, input);
    const counted = action.units ? await action.units({ graphql: context, livemode: context.auth.livemode }, input) : undefined;
    const cost = priceOf(action, input, counted);
    const body = action.mode === "model" ? await runModelCall(context, action, input, cost, unitsOf(action, input, counted)) : await runInTransaction(context, action, input, cost);
    return checkedOutput(context, action, body);
  } catch (error) {
    const apiError = toApiError(error);
    await recordFailure(context, action, apiError).catch(() => undefined);
    throw apiError;
  }
}

// ---------------------------------------------------------------------------------------------
// Transaction mode

async function runInTransaction(context: GraphQLContext, action: LiveAction & { mode: "transaction" }, input: Record<string, unknown>, cost: number) {
  const { auth } = context;
  if (auth.livemode && cost > 0) await assertAffordable(context, action, cost);
  const afterCommit: (() => Promise<unknown>)[] = [];
  const body = await inWriteTransaction(context.prisma, auth, async (tx) => {
    let referenceId: string | undefined;
    let operation: OperationRow | undefined;
    const run: TransactionContext = {
      tx,
      graphql: context,
      livemode: auth.livemode,
      cost,
      afterCommit: (work) => afterCommit.push(work),
      reference: (id) => (referenceId = id),
      async queueOperation(kind, { subjectId, input: operationInput }) {
        if (operation) throw new Error(`${action.name} queued a second operation in one call`);
        operation = await insertOperation(tx, kind, {
          workspaceId: auth.workspaceId,
          subjectId,
          input: operationInput,
          creditsHeld: auth.livemode ? cost : 0,
          action: action.name,
          keyId: auth.keyId,
          requestId: context.requestId,
        });
        const queued = operation;
        referenceId ??= subjectId;
        // Only a committed operation can be claimed; a lost enqueue is healed by the sweep.
        afterCommit.push(() => enqueueOperation((job, payload, options) => context.services.jobs.enqueue(job, payload, options), kind, queued));
        return queued;
      },
    };
    const result = await action.run(run, input);
    let balanceAfter: number | null = null;
    if (auth.livemode && cost > 0) {
      // The spend is conditional on the balance at commit: a concurrent spend cannot overdraw.
      const metadata = operation ? { operation_id: operation.operation_id, hold: true } : undefined;
      balanceAfter = (await spendCredits(tx, { workspaceId: auth.workspaceId, amount: cost, actionType: action.name, keyId: auth.keyId, referenceId, metadata })).balanceAfter;
    }
    const charged = auth.livemode ? cost : 0;
    await recordEvent(tx, completedEvent(context, action, charged, result));
    const credits: CreditReport = { cost, charged, balance_after: balanceAfter, held: Boolean(operation) && charged > 0 };
    return action.credits ? { ...result, credits } : result;
  });
  // In test mode the transaction was rolled back: there is nothing to follow up.
  if (auth.livemode) await runFollowUps(action, afterCommit);
  return body;
}

/**
 * Work after commit cannot undo the call: the call succeeded. A follow-up that fails (Redis down
 * when queueing an operation) is logged, and the operations sweep picks the work up again.
 */
async function runFollowUps(action: ActionDefinition, work: (() => Promise<unknown>)[]): Promise<void> {
  for (const followUp of work) {
    try {
      await followUp();
    } catch (error) {
      logger.error({ err: error, action: action.name, request_id: currentRequestContext()?.requestId }, "follow-up after commit failed");
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Model mode

/** The providers as one call sees them: each answer's usage is collected for the ledger. */
function callProviders(context: GraphQLContext, usage: CallMeta[]): CallProviders {
  // The call's own view: with a test key it refuses every provider (the runner never lets one
  // through; this is the second lock).
  return recordingUsage(context.services.providers.forCall({ livemode: context.auth.livemode }), usage);
}

/** A test key's answer to a model call: validated and priced; nothing held, spent or called. */
function quote(action: LiveAction, cost: number, units: number): Record<string, unknown> {
  return {
    object: "action_quote",
    action: action.name,
    credits: { cost, charged: 0, balance_after: null, held: false } satisfies CreditReport,
    units,
    capabilities: [...(action.uses ?? [])],
  };
}

/** A stored answer given again: nothing was charged this time. */
function replayOf(stored: Record<string, unknown>): Record<string, unknown> {
  const request = currentRequestContext();
  if (request) request.idempotentReplay = true;
  if (!stored.credits || typeof stored.credits !== "object") return stored;
  return { ...stored, credits: { ...(stored.credits as CreditReport), charged: 0, balance_after: null } };
}

async function runModelCall(context: GraphQLContext, action: LiveAction & { mode: "model" }, input: Record<string, unknown>, cost: number, units: number) {
  const { auth, prisma } = context;
  if (!auth.livemode) return quote(action, cost, units);

  const call: CallKey | undefined = callKeyOf(auth.workspaceId, action.name, input);
  if (call) {
    const claim = await claimCallKey(prisma, call);
    if ("replay" in claim) return replayOf(claim.replay);
  }
  const usage: CallMeta[] = [];
  let hold: MovementResult | undefined;
  let referenceId: string | undefined;
  let ranUnits: number | undefined;
  let committed: { body: Record<string, unknown>; result: Record<string, unknown> } | undefined;

  /** In the final transaction: settle the hold to what ran, book the usage, announce, store. */
  const finish = async (tx: Tx, body: Record<string, unknown>) => {
    const spent = ranUnits === undefined ? cost : Math.min(cost, costOfUnits(action, input, ranUnits));
    let balanceAfter: number | null = hold ? hold.balanceAfter : null;
    if (hold) {
      if (spent < cost) {
        balanceAfter = (await addCredits(tx, {
          workspaceId: auth.workspaceId,
          amount: cost - spent,
          actionType: "refund",
          keyId: auth.keyId,
          referenceId,
          description: `Unused part of the hold of ${action.name}`,
          metadata: { kind: "settle", hold_transaction_id: hold.transactionId },
        })).balanceAfter;
      } else {
        balanceAfter = await creditBalance(tx, auth.workspaceId);
      }
      await tx.creditTransaction.update({
        where: { transaction_id: hold.transactionId },
        data: { reference_id: referenceId ?? null, metadata: { kind: "hold", credits_spent: spent, usage } as unknown as Prisma.InputJsonValue },
      });
    }
    const credits: CreditReport = { cost: spent, charged: hold ? spent : 0, balance_after: balanceAfter, held: false };
    const result = action.credits ? { ...body, credits } : body;
    await recordEvent(tx, completedEvent(context, action, credits.charged, result));
    if (call) await storeCallResult(tx, call, result);
    return result;
  };

  try {
    if (cost > 0) {
      await assertAffordable(context, action, cost);
      // Each transaction of a model call is a step of the request's Idempotency-Key, if it has one
      // (src/db/transaction.ts): a retry after a crash does not hold twice.
      hold = await inWriteTransaction(prisma, auth, (tx) =>
        spendCredits(tx, { workspaceId: auth.workspaceId, amount: cost, actionType: action.name, keyId: auth.keyId, metadata: { kind: "hold" } }),
      );
      // A failed call gives its hold back: a fault after it has saved nothing the caller must be
      // told of (not `write_outcome: committed`, docs/errors.md).
      const request = currentRequestContext();
      if (request?.committedWrites) request.committedWrites--;
    }
    const run: ModelContext = {
      graphql: context,
      livemode: true,
      cost,
      db: prisma,
      files: context.services.files,
      providers: callProviders(context, usage),
      reference: (id) => (referenceId = id),
      ran: (count) => (ranUnits = count),
      commit: async (work) => {
        if (committed) throw new Error(`${action.name} committed twice in one call`);
        committed = await inWriteTransaction(prisma, auth, async (tx) => {
          const body = (await work(tx)) as Record<string, unknown>;
          return { body, result: await finish(tx, body) };
        });
        return committed.body as never;
      },
    };
    const body = await action.run(run, input);
    if (committed) {
      if (committed.body !== body) throw new Error(`${action.name} must answer with what its commit returned`);
      return committed.result;
    }
    return await inWriteTransaction(prisma, auth, (tx) => finish(tx, body));
  } catch (error) {
    // Once the final transaction committed the call succeeded: nothing to give back. A COMMIT that
    // went unanswered under an Idempotency-Key is left to the retry, which resumes the call and
    // settles the hold (a release now would be a step that resumption would take for the commit).
    const resumable = currentRequestContext()?.idempotency?.commitLost === true;
    if (!committed) {
      if (hold && !resumable) await releaseHold(context, action, cost, hold, referenceId, usage).catch((release: unknown) => logger.error({ err: release, action: action.name }, "hold not released"));
      if (call) await releaseCallKey(prisma, call).catch(() => undefined);
    }
    throw error;
  }
}

/** Gives a failed model call's hold back; the providers' usage stays on the record. */
async function releaseHold(context: GraphQLContext, action: ActionDefinition, cost: number, hold: MovementResult, referenceId: string | undefined, usage: CallMeta[]) {
  await inWriteTransaction(context.prisma, context.auth, async (tx) => {
    await addCredits(tx, {
      workspaceId: context.auth.workspaceId,
      amount: cost,
      actionType: "refund",
      keyId: context.auth.keyId,
      referenceId,
      description: `Release of the hold of ${action.name} (the call failed)`,
      metadata: { kind: "release", hold_transaction_id: hold.transactionId },
    });
    await tx.creditTransaction.update({
      where: { transaction_id: hold.transactionId },
      data: { metadata: { kind: "hold", credits_spent: 0, usage } as unknown as Prisma.InputJsonValue },
    });
  });
}
