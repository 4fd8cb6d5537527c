// The few raw-SQL needs outside Prisma (migrations, health check) go through this small
// interface, so the same code runs on PostgreSQL (pg) and on embedded PGlite.
import type pg from "pg";
import type { PGlite } from "@electric-sql/pglite";

export interface SqlSession {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements. */
  exec(script: string): Promise<void>;
}

export interface SqlRunner extends SqlSession {
  /** Runs fn on one connection (advisory locks and transactions need a single session). */
  session<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
}

export function pgRunner(pool: pg.Pool): SqlRunner {
  const wrap = (client: pg.Pool | pg.PoolClient): SqlSession => ({
    async query<T>(text: string, params?: unknown[]) {
      const result = await client.query(text, params as unknown[]);
      return result.rows as T[];
    },
    async exec(script: string) {
      await client.query(script);
    },
  });
  return {
    ...wrap(pool),
    async session(fn) {
      const client = await pool.connect();
      try {
        return await fn(wrap(client));
      } finally {
        client.release();
      }
    },
  };
}

export function pgliteRunner(db: PGlite): SqlRunner {
  const session: SqlSession = {
    async query<T>(text: string, params?: unknown[]) {
      const result = await db.query(text, params);
      return result.rows as T[];
    },
    async exec(script: string) {
      await db.exec(script);
    },
  };
  // PGlite is a single connection already.
  return { ...session, session: (fn) => fn(session) };
}
