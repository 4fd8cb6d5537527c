// Once per run: a fresh, migrated PostgreSQL database and a Redis for the whole suite. Tests run
// on the real PostgreSQL (TEST_DATABASE_ADMIN_URL, by default the local server's `test`
// database, is used only to create and drop the run's own database).
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrate } from "../../src/db/migrate.js";
import { pgRunner } from "../../src/db/sql-runner.js";
import { startPrivateRedis, type RedisHandle } from "../../src/redis/redis-server.js";
import path from "node:path";
import { rm } from "node:fs/promises";
import os from "node:os";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
  }
}

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

export default async function setup(project: TestProject) {
  const name = `cutroom_test_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();

  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  await migrate(pgRunner(pool));
  await pool.end();

  let redis: RedisHandle | undefined;
  const redisUrl = process.env.REDIS_URL ?? (redis = await startPrivateRedis(path.join(os.tmpdir(), name))).url;

  project.provide("databaseUrl", databaseUrl);
  project.provide("redisUrl", redisUrl);

  return async () => {
    await redis?.stop();
    await rm(path.join(os.tmpdir(), name), { recursive: true, force: true });
    const cleanup = new pg.Client({ connectionString: ADMIN_URL });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  };
}
