// Lua scripts run by SHA (src/redis/script.ts): the first call teaches Redis the script, later
// ones send only its SHA, and a Redis that forgot it (restart, SCRIPT FLUSH) is taught again.
import { Redis } from "ioredis";
import { afterAll, expect, inject, it } from "vitest";
import { redisScript } from "../src/redis/script.js";

const redis = new Redis(inject("redisUrl"));
afterAll(() => redis.disconnect());

it("runs a script by its SHA, and again after Redis has forgotten it", async () => {
  const key = `test:redis-script:${process.pid}:${Date.now()}`;
  const add = redisScript("return redis.call('INCRBY', KEYS[1], ARGV[1])");
  expect(await add.run(redis, [key], [2])).toBe(2);
  expect(await add.run(redis, [key], [3])).toBe(5);
  await redis.script("FLUSH");
  expect(await add.run(redis, [key], [4])).toBe(9);
  // A script's own error is the caller's, not taken for a missing script.
  const failing = redisScript("return redis.error_reply('broken on purpose')");
  await expect(failing.run(redis, [key], [])).rejects.toThrow("broken on purpose");
  await redis.del(key);
});
