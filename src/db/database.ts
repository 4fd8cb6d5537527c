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
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    return {
      kind: "postgres",
      prisma,
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
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(lite) });
  return {
    kind: "pglite",
    prisma,
    sql: pgliteRunner(lite),
    async close() {
      await prisma.$disconnect();
      await lite.close();
    },
  };
}
