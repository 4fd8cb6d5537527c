// Opens the database the configuration points at: real PostgreSQL through @prisma/adapter-pg
// when DATABASE_URL is set, otherwise embedded PostgreSQL (PGlite) persisted under the data dir.
import { mkdir, open, readFile, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../generated/prisma/client.js";
import { pgliteRunner, pgRunner, type SqlRunner } from "./sql-runner.js";
import { logger } from "../logger.js";

export type { PrismaClient };

export interface Database {
  kind: "postgres" | "pglite";
  prisma: PrismaClient;
  sql: SqlRunner;
  /**
   * SQL statements Prisma has sent so far, the request log's writes aside (for query-count checks
   * such as the N+1 test). Only a database opened with `countQueries` counts.
   */
  queryCount(): number;
  close(): Promise<void>;
}

/**
 * Prisma's defaults (2 s to get a connection for a transaction, 5 s to finish it) turn a burst of
 * writes on one row, or a starved CPU, into 500s: writes that wait on the same row lock queue for
 * the pool's connections. A transaction may wait up to 10 s for a connection and run for 20 s,
 * still inside the request's own time limit (docs/limits.md).
 */
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;

/**
 * Any other error format makes Prisma build an Error on every query, to point a pretty message
 * at the calling line should the query fail: a stack capture per query. The API never shows
 * Prisma's messages (failures are classified by code into the envelope), and logs keep the code
 * and the plain message.
 */
const ERROR_FORMAT = "minimal" as const;

/** Counting logs every statement through Prisma's event emitter, so only tests turn it on. */
function prismaClient(adapter: PrismaPg | PrismaPGlite, countQueries: boolean): { prisma: PrismaClient; queryCount(this: void): number } {
  if (!countQueries) {
    return {
      prisma: new PrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS, errorFormat: ERROR_FORMAT }),
      queryCount: () => {
        throw new Error("open the database with countQueries to count its queries");
      },
    };
  }
  let count = 0;
  const client = new PrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS, errorFormat: ERROR_FORMAT, log: [{ emit: "event", level: "query" }] });
  client.$on("query", (event) => {
    // The request log's own batched writes are bookkeeping, not work a request asked for.
    if (!event.query.includes("request_logs")) count += 1;
  });
  // The log option narrows the client's type; the rest of the service sees a plain client.
  return { prisma: client, queryCount: () => count };
}

interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  countQueries?: boolean;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle connection the server closes (a restart, a failover, pg_terminate_backend) is an
    // 'error' on the pool; unheard, it would end the process. The pool drops that connection and
    // opens a new one for the next query.
    // pg hangs the whole client (its settings and buffers) on the error: the line keeps what says why.
    pool.on("error", (error: Error & { code?: string }) => logger.warn({ err: { type: error.name, message: error.message, code: error.code } }, "idle database connection closed"));
    const { prisma, queryCount } = prismaClient(new PrismaPg(pool), options.countQueries ?? false);
    return {
      kind: "postgres",
      prisma,
      queryCount,
      sql: pgRunner(pool),
      async close() {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }
  const dir = path.join(options.dataDir, "pglite");
  await mkdir(dir, { recursive: true });
  const releaseLock = await lockDataDir(path.join(options.dataDir, "pglite.lock"));
  let lite: PGlite;
  try {
    lite = await PGlite.create(dir);
  } catch (error) {
    await releaseLock();
    throw error;
  }
  const { prisma, queryCount } = prismaClient(new PrismaPGlite(lite), options.countQueries ?? false);
  return {
    kind: "pglite",
    prisma,
    queryCount,
    sql: pgliteRunner(lite),
    async close() {
      await prisma.$disconnect();
      await lite.close();
      await releaseLock();
    },
  };
}

/** Is the process alive on this machine? One of another user still counts (EPERM). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The embedded database is open in another live process (typically `npm start`). */
export class DataDirInUseError extends Error {
  constructor(readonly dataDir: string, readonly ownerPid: number) {
    super(
      `The embedded database in ${dataDir} is in use by process ${ownerPid} (is \`npm start\` running?). ` +
        "Stop that process first, or point DATABASE_URL at a PostgreSQL server both can share.",
    );
    this.name = "DataDirInUseError";
  }
}

/**
 * PGlite is an in-process database: two processes opening the same directory would each see
 * their own copy and overwrite each other. A lock file with the owner's pid keeps it to one.
 */
async function lockDataDir(lockPath: string): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, "wx");
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number.parseInt(await readFile(lockPath, "utf8").catch(() => ""), 10);
      if (Number.isInteger(owner) && processAlive(owner)) {
        throw new DataDirInUseError(path.dirname(lockPath), owner);
      }
      await rm(lockPath, { force: true }); // left by a process that is gone
    }
  }
  throw new Error(`Could not lock ${lockPath}`);
}
