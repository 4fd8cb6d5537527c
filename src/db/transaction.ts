// Every write runs in one transaction with the events it causes (outbox). With a test key
// (livemode false) the same code runs and the transaction is rolled back at the end, so the
// request is validated against the real database (existence, ownership, constraints) and
// nothing is written. In a request with an Idempotency-Key, each transaction is a step of the
// key's record, committed with it (src/db/idempotent-steps.ts): a step an earlier, crashed
// attempt committed is not run again — its recorded result is returned instead.
//
// A write whose COMMIT is sent but never answered (the connection dropped) may or may not have
// been saved: it fails with writeOutcomeError("unknown"), not as a fault before commit (which
// saved nothing and is safe to retry). Each commit is counted on the request, so a fault after it
// says the write was saved (docs/errors.md, "A write whose answer was lost").
import type { PrismaClient } from "../generated/prisma/client.js";
import { Prisma } from "../generated/prisma/client.js";
import { currentRequestContext, type IdempotentRun } from "../context/request-context.js";
import { writeOutcomeError } from "../errors/api-error.js";
import { logger } from "../logger.js";
import { recordStep, stepResult } from "./idempotent-steps.js";
import { reachFaultPoint } from "../testing/fault-points.js";

export type Tx = Prisma.TransactionClient;

class TestModeRollback<T> extends Error {
  constructor(readonly result: T) {
    super("test mode: rolled back");
  }
}

interface WriteOptions {
  livemode: boolean;
}

export async function inWriteTransaction<T>(
  prisma: PrismaClient,
  options: WriteOptions,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  if (options.livemode) {
    const run = currentRequestContext()?.idempotency;
    if (!run) return committing(prisma, undefined, work);
    const step = run.nextStep++;
    const committed = run.committed.get(step);
    if (committed) return stepResult(committed) as T;
    const result = await committing(prisma, run, async (tx) => {
      const value = await work(tx);
      await recordStep(tx, run, step, value);
      reachFaultPoint("idempotency.before_commit", step + 1);
      return value;
    });
    run.wrote = true;
    reachFaultPoint("idempotency.after_commit", step + 1);
    return result;
  }
  try {
    await prisma.$transaction(async (tx) => {
      throw new TestModeRollback(await work(tx));
    });
  } catch (error) {
    if (error instanceof TestModeRollback) return error.result as T;
    throw error;
  }
  throw new Error("unreachable: a test-mode transaction always rolls back");
}

/** Prisma's own refusal to commit a transaction past its timeout: rolled back, nothing saved. */
const TRANSACTION_CLOSED = "P2028";

/** Runs and commits one live write transaction, telling a lost COMMIT from a failure before it. */
async function committing<T>(prisma: PrismaClient, run: IdempotentRun | undefined, work: (tx: Tx) => Promise<T>): Promise<T> {
  let workDone = false;
  let result: T;
  try {
    result = await prisma.$transaction(async (tx) => {
      const value = await work(tx);
      workDone = true;
      return value;
    });
  } catch (error) {
    if (!workDone || (error instanceof Prisma.PrismaClientKnownRequestError && error.code === TRANSACTION_CLOSED)) throw error;
    // The work ran and COMMIT was sent; its answer never came.
    logger.error({ err: error, request_id: currentRequestContext()?.requestId }, "commit unanswered: the write may or may not be saved");
    if (run) run.commitLost = true;
    throw writeOutcomeError("unknown", error);
  }
  const request = currentRequestContext();
  if (request) request.committedWrites = (request.committedWrites ?? 0) + 1;
  return result;
}
