// Every write runs in one transaction with the events it causes (outbox). With a test key
// (livemode false) the same code runs and the transaction is rolled back at the end, so the
// request is validated against the real database (existence, ownership, constraints) and
// nothing is written.
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Prisma } from "../generated/prisma/client.js";

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
  if (options.livemode) return prisma.$transaction(work);
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
