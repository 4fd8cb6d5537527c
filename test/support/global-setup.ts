// Once per run: a fresh, migrated PostgreSQL database and a Redis for the whole suite. Tests run
// on the real PostgreSQL (TEST_DATABASE_ADMIN_URL, by default the local server's `test`
// database, is used only to create and drop the run's own database).
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createScratchDatabase, DEFAULT_ADMIN_URL } from "../../src/db/scratch-database.js";
import { startPrivateRedis, type RedisHandle } from "../../src/redis/redis-server.js";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const database = await createScratchDatabase("cutroom_test", process.env.TEST_DATABASE_ADMIN_URL ?? DEFAULT_ADMIN_URL);
  const redisDir = path.join(os.tmpdir(), database.name);
  let redis: RedisHandle | undefined;
  const redisUrl = process.env.REDIS_URL ?? (redis = await startPrivateRedis(redisDir)).url;

  project.provide("databaseUrl", database.url);
  project.provide("redisUrl", redisUrl);

  return async () => {
    await redis?.stop();
    await rm(redisDir, { recursive: true, force: true });
    await database.drop();
  };
}
