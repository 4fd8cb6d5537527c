// A Lua script run by its SHA1 (EVALSHA), so a hot path sends 40 bytes instead of the script's
// text on every call; Redis learns the text again (EVAL) the first time, and after a restart or
// SCRIPT FLUSH answers NOSCRIPT.
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

export interface RedisScript {
  run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown>;
}

export function redisScript(lua: string): RedisScript {
  const sha = createHash("sha1").update(lua).digest("hex");
  return {
    async run(redis, keys, args) {
      try {
        return await redis.evalsha(sha, keys.length, ...keys, ...args);
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
        return redis.eval(lua, keys.length, ...keys, ...args);
      }
    },
  };
}
