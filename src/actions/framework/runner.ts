// Runs one action call (contract document 2, 4.1): validate the input, count its weight against
// the rate windows, price it, then — in one transaction — spend the credits, do the work and
// record `action.completed` (with the action's own events). A failure records `action.failed`
// (with `credits.low` for a shortfall) in one transaction of its own. With a test key the same path
// runs, the transaction is rolled back, nothing is spent, and the answer says what it would cost.
import type { GraphQLContext } from "../../graphql/context.js";
import { ApiError } from "../../errors/api-error.js";
import { toApiError } from "../../errors/envelope.js";
import { inWriteTransaction } from "../../db/transaction.js";
import { recordEvent } from "../../outbox/record-event.js";
import { creditBalance, InsufficientCreditsError, recordCreditsLow, spendCredits } from "../../credits/ledger.js";
import { chargeWeight } from "../../guards/weights.js";
import { currentRequestContext } from "../../context/request-context.js";
import { logger } from "../../logger.js";
import type { ActionDefinition } from "../catalog.js";
import { actionHandler } from "./handler.js";
import { priceOf } from "./pricing.js";
import { parseActionInput } from "./input.js";

interface CreditReport {
  /** What the call costs (or, with a test key, would have cost). */
  cost: number;
  /** What was taken from the balance: the cost, or 0 with a test key. */
  charged: number;
  /** The balance after the charge; null when nothing was charged. */
  balance_after: number | null;
}

export async function recordFailure(context: GraphQLContext, action: ActionDefinition, error: ApiError): Promise<void> {
  if (!context.auth.livemode) return; // test mode writes nothing, failures included
  await context.prisma.$transaction(async (tx) => {
    if (error instanceof InsufficientCreditsError) await recordCreditsLow(tx, error);
    await recordEvent(tx, actionCallEvent(context, action, "action.failed", { error: { code: error.code, type: error.type, status: error.status, message: error.message } }));
  });
}

/** The `action.completed` / `action.failed` event of a call (payloads in src/events/catalog.ts). */
function actionCallEvent(context: GraphQLContext, action: ActionDefinition, type: "action.completed" | "action.failed", outcome: Record<string, unknown>) {
  return {
    workspaceId: context.auth.workspaceId,
    type,
    livemode: context.auth.livemode,
    data: {
      object: { object: "action_call", action: action.name, request_id: context.requestId, key_id: context.auth.keyId, livemode: context.auth.livemode, ...outcome },
    },
  };
}

/** Refuses a call the balance cannot pay for before doing any of its work. */
async function assertAffordable(context: GraphQLContext, action: ActionDefinition, cost: number): Promise<void> {
  const balance = await creditBalance(context.prisma, context.auth.workspaceId);
  if (balance < cost) throw new InsufficientCreditsError(context.auth.workspaceId, action.name, cost, balance);
}

export async function runAction(context: GraphQLContext, action: ActionDefinition, rawInput: unknown): Promise<Record<string, unknown>> {
  const handler = actionHandler(action.name);
  if (!handler) throw new ApiError("not_found", `The action ${action.name} is not available yet.`);
  try {
    const input = parseActionInput(action, rawInput);
    // Heavy actions count more than one unit; spending ones also count against the credits budget.
    await chargeWeight(action.weight, { spendsCredits: action.credits });
    if (!context.auth.livemode && action.testMode === "unsupported") {
      throw new ApiError("test_mode_unsupported", `${action.name} cannot be simulated with a test key: its cost and effects depend on work it would have to do.`);
    }
    const units = handler.units ? await handler.units({ graphql: context, livemode: context.auth.livemode }, input) : undefined;
    const cost = priceOf(action, input, units);
    if (context.auth.livemode && cost > 0) {
      await assertAffordable(context, action, cost);
      // Counted only once the balance can pay: a refused call must not use up the credits quota.
      await currentRequestContext()?.meter?.chargeCredits(cost);
    }

    const afterCommit: (() => Promise<unknown>)[] = [];
    const { body, credits } = await inWriteTransaction(context.prisma, context.auth, async (tx) => {
      let referenceId: string | undefined;
      const result = await handler.run(
        { tx, graphql: context, livemode: context.auth.livemode, cost, afterCommit: (work) => afterCommit.push(work), reference: (id) => (referenceId = id) },
        input,
      );
      let balanceAfter: number | null = null;
      if (context.auth.livemode && cost > 0) {
        // The spend is conditional on the balance at commit: a concurrent spend cannot overdraw.
        balanceAfter = (await spendCredits(tx, { workspaceId: context.auth.workspaceId, amount: cost, actionType: action.name, keyId: context.auth.keyId, referenceId })).balanceAfter;
      }
      const report: CreditReport = { cost, charged: context.auth.livemode ? cost : 0, balance_after: balanceAfter };
      await recordEvent(
        tx,
        actionCallEvent(context, action, "action.completed", { credits_spent: report.charged, result_object: typeof result.object === "string" ? result.object : null }),
      );
      return { body: result, credits: report };
    });
    // In test mode the transaction was rolled back: there is nothing to follow up.
    if (context.auth.livemode) await runFollowUps(action, afterCommit);
    return action.credits ? { ...body, credits } : body;
  } catch (error) {
    const apiError = toApiError(error);
    await recordFailure(context, action, apiError).catch(() => undefined);
    throw apiError;
  }
}

/**
 * Work after commit cannot undo the call: the call succeeded. A follow-up that fails (Redis down
 * when queueing a render) is logged, and its sweep picks the work up again (renders.sweep).
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
