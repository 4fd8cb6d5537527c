// Opens the database the configuration points at: real PostgreSQL through @prisma/adapter-pg
// when DATABASE_URL is set, otherwise embedded PostgreSQL (PGlite) persisted under the data dir.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../generated/prisma/client.js";
import { pgliteRunner, pgRunner, type SqlRunner } from "./sql-runner.js";

export type { PrismaClient };

export interface Database {
  kind: "postgres" | "pglite";
  prisma: PrismaClient;
  sql: SqlRunner;
  /** SQL statements Prisma has sent so far (for query-count checks such as the N+1 test). */
  queryCount(): number;
  close(): Promise<void>;
}

function countingClient(adapter: PrismaPg | PrismaPGlite) {
  let count = 0;
  const client = new PrismaClient({ adapter, log: [{ emit: "event", level: "query" }] });
  client.$on("query", () => {
    count += 1;
  });
  // The log option narrows the client's type; the rest of the service sees a plain client.
  return { prisma: client as unknown as PrismaClient, queryCount: () => count };
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    const { prisma, queryCount } = countingClient(new PrismaPg(pool));
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
  const lite = await PGlite.create(dir);
  const { prisma, queryCount } = countingClient(new PrismaPGlite(lite));
  return {
    kind: "pglite",
    prisma,
    queryCount,
    sql: pgliteRunner(lite),
    async close() {
      await prisma.$disconnect();
      await lite.close();
    },
  };
}
