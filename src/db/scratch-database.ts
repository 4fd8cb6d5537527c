// A throwaway database on a PostgreSQL server, for test runs and benchmarks: created fresh,
// migrated, and dropped afterwards.
import pg from "pg";
import { migrate } from "./migrate.js";
import { pgRunner } from "./sql-runner.js";

export const DEFAULT_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/test";

export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(prefix: string, adminUrl = DEFAULT_ADMIN_URL): Promise<ScratchDatabase> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  try {
    await migrate(pgRunner(pool));
  } finally {
    await pool.end();
  }
  return { name, url: url.toString(), drop: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
