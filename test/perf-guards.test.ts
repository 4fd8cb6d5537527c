// The guards' one round trip (src/guards/rate-limit.ts, consumeAll) and the quota (PostgreSQL,
// src/guards/quota.ts): every rate window and the request quota are checked before any is kept
// counted, so a refused call counts nothing anywhere;
// and when Redis stops answering, the per-process memory limiters still count the windows.
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFixture, useService, type Fixture, type TestService } from "./support/service.js";
import { startPrivateRedis, type RedisHandle } from "../src/redis/redis-server.js";
import { loadConfig } from "../src/config.js";
import { startService, type RunningService } from "../src/service.js";
import { createScratchDatabase, DEFAULT_ADMIN_URL, type ScratchDatabase } from "../src/db/scratch-database.js";
import type { RateLimits } from "../src/config.js";

const service = useService();

async function keyWith(test: TestService, limits: Partial<RateLimits>, quota?: { limit: number; unit: "requests" }): Promise<Fixture> {
  const fixture = await createFixture(test);
  await test.service.database.prisma.apiKey.update({
    where: { key_id: fixture.keyId },
    data: { rate_limits: limits, ...(quota && { quota_limit: quota.limit, quota_unit: quota.unit }) },
  });
  return fixture;
}

describe("a refused call counts nothing", () => {
  it("a bulk call too large for the minute window leaves the window as it was", async () => {
    const { client } = await keyWith(service, { minute: 5 });
    const refused = await client.post("/api/v1/videos/bulk", { create: Array.from({ length: 6 }, (_, i) => ({ video_name: `v${i}` })) });
    expect(refused.status, refused.text).toBe(429);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    // The refused six items took nothing: the call's own unit, counted when it was admitted, is
    // all it used, so four calls remain.
    for (let left = 3; left >= 0; left--) {
      const answer = await client.get("/api/v1/videos");
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers.get("x-ratelimit-remaining")).toBe(String(left));
    }
    expect((await client.get("/api/v1/videos")).status).toBe(429);
  });

  it("a call refused by its minute window does not count against the monthly quota, and one refused by the quota takes no window", async () => {
    const { client } = await keyWith(service, { minute: 2 }, { limit: 3, unit: "requests" });
    expect((await client.get("/api/v1/videos")).status).toBe(200);
    expect((await client.get("/api/v1/videos")).status).toBe(200);
    const byWindow = await client.get("/api/v1/videos");
    expect(byWindow.body.error.code).toBe("rate_limit_exceeded");
    expect(byWindow.headers.get("x-quota-remaining")).toBe("1");

    const { client: other } = await keyWith(service, { minute: 10 }, { limit: 1, unit: "requests" });
    expect((await other.get("/api/v1/videos")).headers.get("x-ratelimit-remaining")).toBe("9");
    const byQuota = await other.get("/api/v1/videos");
    expect(byQuota.body.error.code).toBe("quota_exceeded");
    // The windows are reported as they stand: the refused call is not in them.
    expect(byQuota.headers.get("x-ratelimit-remaining")).toBe("9");
    expect(byQuota.headers.get("x-ratelimit-limit")).toBe("10");
  });
});

describe("when Redis stops answering", () => {
  const dataDir = path.join(os.tmpdir(), `cutroom-perf-guards-${process.pid}`);
  let redis: RedisHandle;
  let scratch: ScratchDatabase;
  let running: RunningService | undefined;
  const test: TestService = {
    get url() {
      return running!.url;
    },
    get service() {
      return running!;
    },
  };

  beforeAll(async () => {
    scratch = await createScratchDatabase("cutroom_perf_guards", process.env.TEST_DATABASE_ADMIN_URL ?? DEFAULT_ADMIN_URL);
    redis = await startPrivateRedis(dataDir);
    running = await startService({ ...loadConfig({}), port: 0, databaseUrl: scratch.url, redisUrl: redis.url, dataDir, printStartupKey: false, runWorkers: false });
  });

  afterAll(async () => {
    await running?.stop();
    await redis?.stop().catch(() => undefined);
    await scratch?.drop();
  });

  it("the memory limiters of the process count the windows instead", async () => {
    const { client } = await keyWith(test, { minute: 2 });
    await redis.stop();
    const answers = [await client.get("/api/v1/videos"), await client.get("/api/v1/videos"), await client.get("/api/v1/videos")];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(answers[0]!.headers.get("x-ratelimit-remaining")).toBe("1");
    expect(answers[2]!.body.error.code).toBe("rate_limit_exceeded");
  });
});
