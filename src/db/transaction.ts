// Every write runs in one transaction with the events it causes (outbox). With a test key
// (livemode false) the same code runs and the transaction is rolled back at the end, so the
// request is validated against the real database (existence, ownership, constraints) and
// nothing is written. In a request with an Idempotency-Key, each transaction is a step of the
// key's record, committed with it (src/db/idempotent-steps.ts): a step an earlier, crashed
// attempt committed is not run again — its recorded result is returned instead.
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Prisma } from "../generated/prisma/client.js";
import { currentRequestContext } from "../context/request-context.js";
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
    if (!run) return prisma.$transaction(work);
    const step = run.nextStep++;
    const committed = run.committed.get(step);
    if (committed) return stepResult(committed) as T;
    const result = await prisma.$transaction(async (tx) => {
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
