// Applies prisma/migrations/*/migration.sql in order, under an advisory lock, recording each in
// _prisma_migrations the way Prisma does, so Prisma tooling reads the database as up to date.
// (The Prisma schema engine that normally does this cannot be installed here.)
import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { SqlRunner, SqlSession } from "./sql-runner.js";

export const MIGRATIONS_DIR = fileURLToPath(new URL("../../prisma/migrations", import.meta.url));

// Prisma's own advisory lock key, so our runner and Prisma's never run at once.
const MIGRATION_LOCK_KEY = 72707369;

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

async function applyOne(session: SqlSession, migration: Migration): Promise<void> {
  await session.exec("BEGIN");
  try {
    await session.exec(migration.sql);
    await session.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
       VALUES ($1, $2, now(), $3, 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await session.exec("COMMIT");
  } catch (error) {
    await session.exec("ROLLBACK");
    throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
  }
}

/** Applies pending migrations; returns the names applied. Refuses edited migrations. */
export async function migrate(runner: SqlRunner, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await readMigrations(dir);
  return runner.session(async (session) => {
    await session.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await session.exec(CREATE_MIGRATIONS_TABLE);
      const rows = await session.query<AppliedRow>(
        `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`,
      );
      const applied = new Map(
        rows.filter((row) => row.finished_at && !row.rolled_back_at).map((row) => [row.migration_name, row]),
      );
      const done: string[] = [];
      for (const migration of migrations) {
        const previous = applied.get(migration.name);
        if (previous) {
          if (previous.checksum !== migration.checksum) {
            throw new Error(`Migration ${migration.name} was edited after it was applied; add a new migration instead.`);
          }
          continue;
        }
        await applyOne(session, migration);
        done.push(migration.name);
      }
      return done;
    } finally {
      await session.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  });
}
