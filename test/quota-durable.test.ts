// Monthly quotas are money: their counts live in PostgreSQL, so losing Redis's data (FLUSHALL, a
// restart without persistence) never grants a fresh month (issue "Reliability and security, round
// two", 4). Rate windows may reset with Redis; that is documented (docs/guards.md). A Redis of
// this file's own, since FLUSHALL would empty every other file's.
import { describe, expect, it } from "vitest";
import { createFixture, isolatedEnvironment, useService } from "./support/service.js";

const environment = isolatedEnvironment("quota_durable");
const service = useService(environment.overrides);

describe("a monthly quota across a Redis FLUSHALL", () => {
  it("a request quota of 5: 5 × 200, 429, FLUSHALL, still 429 and the count still 5", async () => {
    const fixture = await createFixture(service);
    const { client } = await fixture.newKey({ quota: { limit: 5, unit: "requests" } });
    const before = [];
    for (let index = 0; index < 5; index++) before.push((await client.get("/api/v1/videos")).status);
    expect(before).toEqual([200, 200, 200, 200, 200]);
    expect((await client.get("/api/v1/videos")).body.error.code).toBe("quota_exceeded");

    await service.service.redis.flushall();

    const after = await client.get("/api/v1/videos");
    expect(after.status, after.text).toBe(429);
    expect(after.body.error).toMatchObject({ code: "quota_exceeded", details: { used: 5, limit: 5 } });
    expect(after.headers.get("x-quota-remaining")).toBe("0");
  });

  it("counts exactly under concurrency: 20 requests at once against a quota of 7 admit 7", async () => {
    const fixture = await createFixture(service);
    const { client } = await fixture.newKey({ quota: { limit: 7, unit: "requests" } });
    const statuses = await Promise.all(Array.from({ length: 20 }, () => client.get("/api/v1/videos").then((response) => response.status)));
    expect(statuses.filter((status) => status === 200)).toHaveLength(7);
    expect(statuses.filter((status) => status === 429)).toHaveLength(13);
    await service.service.redis.flushall();
    expect((await client.get("/api/v1/videos")).status).toBe(429);
  });
});
