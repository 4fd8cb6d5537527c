// Rate windows and monthly quotas over real HTTP (contract 4.1.5, 7, 8; src/guards/rate-limit.ts,
// quota.ts, meter.ts, weights.ts): every window reached and reset, the X-RateLimit-* and X-Quota-*
// headers, per-key overrides, heavy requests (exports, bulk, batch members), the per-address window
// of requests without a valid key, and test keys. Windows are shortened to seconds so a reset can
// be waited for. Requests without a key are sent from an address of their own (127.x.y.z) so no
// other test file shares their window.
import http from "node:http";
import { describe, expect, it } from "vitest";
import { createFixture, useService, type ApiResponse, type Fixture } from "./support/service.js";
import type { RateLimits } from "../src/config.js";
import { addCredits } from "../src/credits/ledger.js";
import { sleep } from "./support/wait.js";

const WINDOW_SECONDS = { minute: 2, hour: 3, day: 4, credits_day: 4 };
const ANONYMOUS_PER_MINUTE = 3;
const service = useService({ rateWindowSeconds: WINDOW_SECONDS, anonymousPerMinute: ANONYMOUS_PER_MINUTE });

type Row = Record<string, any>;

const prisma = () => service.service.database.prisma;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A fixture whose key carries its own rate windows (and optionally a quota). */
async function keyWith(
  limits: Partial<RateLimits> | undefined,
  options: { mode?: "live" | "test"; quota?: { limit: number; unit: "requests" | "credits" } } = {},
): Promise<Fixture> {
  const fixture = await createFixture(service, { mode: options.mode ?? "live" });
  await prisma().apiKey.update({
    where: { key_id: fixture.keyId },
    data: {
      ...(limits ? { rate_limits: limits } : {}),
      ...(options.quota ? { quota_limit: options.quota.limit, quota_unit: options.quota.unit } : {}),
    },
  });
  return fixture;
}

interface RawResponse {
  status: number;
  headers: Headers;
  body: Row;
}

/** A request sent from a loopback address of its own, so its per-address window is private. */
function fromAddress(address: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const url = new URL(path, service.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: "GET", headers, localAddress: address },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => {
          const result = new Headers();
          for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) result.set(name, Array.isArray(value) ? value.join(", ") : value);
          resolve({ status: response.statusCode!, headers: result, body: text ? JSON.parse(text) : {} });
        });
      },
    );
    request.on("error", reject);
    request.end();
  });
}

function freshAddress(): string {
  const octet = () => 1 + Math.floor(Math.random() * 254);
  return `127.${octet()}.${octet()}.${octet()}`;
}

/** Parses X-RateLimit-Policy into { limit, seconds, params } items. */
function policyOf(headers: Headers): { limit: number; seconds: number; rest: string }[] {
  const value = headers.get("x-ratelimit-policy");
  expect(value, "X-RateLimit-Policy").toBeTruthy();
  return value!.split(",").map((item) => {
    const match = /^(\d+);w=(\d+)(.*)$/.exec(item.trim());
    expect(match, `policy item '${item}'`).not.toBeNull();
    return { limit: Number(match![1]), seconds: Number(match![2]), rest: match![3]! };
  });
}

function expectRateHeaders(response: ApiResponse | RawResponse, expected: { limit: number; remaining: number; window: string; seconds: number }) {
  const headers = response.headers;
  expect(headers.get("x-ratelimit-limit"), "X-RateLimit-Limit").toBe(String(expected.limit));
  expect(headers.get("x-ratelimit-remaining"), "X-RateLimit-Remaining").toBe(String(expected.remaining));
  expect(headers.get("x-ratelimit-window"), "X-RateLimit-Window").toBe(expected.window);
  const reset = Number(headers.get("x-ratelimit-reset"));
  expect(Number.isInteger(reset), "X-RateLimit-Reset is unix seconds").toBe(true);
  expect(reset).toBeGreaterThanOrEqual(nowSeconds() - 1);
  expect(reset).toBeLessThanOrEqual(nowSeconds() + expected.seconds + 1);
}

/** A 429 rate_limit_exceeded naming `window`; returns Retry-After in seconds. */
function expectRateLimited(response: ApiResponse | RawResponse, window: string, limit: number): number {
  expect(response.status, JSON.stringify(response.body)).toBe(429);
  expect(response.body.error).toMatchObject({
    type: "rate_limit_error",
    code: "rate_limit_exceeded",
    status: 429,
    retryable: true,
    details: { window, limit },
    request_id: response.headers.get("x-request-id"),
  });
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS[window === "anonymous_minute" ? "minute" : (window as keyof typeof WINDOW_SECONDS)]);
  expect(response.headers.get("x-ratelimit-window")).toBe(window);
  expect(response.headers.get("x-ratelimit-limit")).toBe(String(limit));
  expect(response.headers.get("x-ratelimit-remaining")).toBe("0");
  return retryAfter;
}

function firstOfNextMonthUtc(now = new Date()): number {
  return Math.floor(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000);
}

describe("rate windows", () => {
  it("reports the tightest window consumed and lists all four windows in X-RateLimit-Policy", async () => {
    const { client } = await keyWith({ minute: 5, hour: 4, day: 50, credits_day: 7 });
    const first = await client.get("/api/v1/videos");
    expect(first.status, first.text).toBe(200);
    expectRateHeaders(first, { limit: 4, remaining: 3, window: "hour", seconds: WINDOW_SECONDS.hour });
    const policy = policyOf(first.headers);
    expect(policy.map(({ limit, seconds }) => [limit, seconds])).toEqual([
      [5, WINDOW_SECONDS.minute],
      [4, WINDOW_SECONDS.hour],
      [50, WINDOW_SECONDS.day],
      [7, WINDOW_SECONDS.credits_day],
    ]);

    // The same headers on a failure of the key (a 404 counts like any call).
    const missing = await client.get("/api/v1/videos/vid_doesnotexist000000000");
    expect(missing.status).toBe(404);
    expectRateHeaders(missing, { limit: 4, remaining: 2, window: "hour", seconds: WINDOW_SECONDS.hour });
    expect(policyOf(missing.headers)).toHaveLength(4);
  });

  it("uses the configured defaults for a key without overrides, and a key's overrides once set through the key routes", async () => {
    const admin = await createFixture(service);
    const { keyId, client } = await admin.newKey();
    const defaults = service.service.guards.config.rateLimits;

    const before = await client.get("/api/v1/videos");
    expect(before.status, before.text).toBe(200);
    expectRateHeaders(before, { limit: defaults.minute, remaining: defaults.minute - 1, window: "minute", seconds: WINDOW_SECONDS.minute });
    expect(policyOf(before.headers).map((item) => item.limit)).toEqual([defaults.minute, defaults.hour, defaults.day, defaults.credits_day]);

    const patched = await admin.client.patch(`/api/v1/api_keys/${keyId}`, { rate_limits: { minute: 1000, hour: 3 } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.rate_limits).toEqual({ minute: 1000, hour: 3 });

    const after = await client.get("/api/v1/videos");
    expect(after.status, after.text).toBe(200);
    // The hour window now holds 3 (the call before the change counted too, unless its window
    // already turned over).
    expect(after.headers.get("x-ratelimit-limit")).toBe("3");
    expect(after.headers.get("x-ratelimit-window")).toBe("hour");
    expect(["1", "2"]).toContain(after.headers.get("x-ratelimit-remaining"));
    expect(policyOf(after.headers).map((item) => item.limit)).toEqual([1000, 3, defaults.day, defaults.credits_day]);
    let refused: ApiResponse | undefined;
    for (let i = 0; i < 3 && !refused; i++) {
      const response = await client.get("/api/v1/videos");
      if (response.status === 429) refused = response;
    }
    expect(refused, "the third hour unit is the last").toBeDefined();
    expectRateLimited(refused!, "hour", 3);

    // Another key of the workspace is not affected.
    const other = await admin.client.get("/api/v1/videos");
    expect(other.status).toBe(200);
  });

  describe.concurrent("each window is reached, answers 429, and resets after its length", () => {
    for (const window of ["minute", "hour", "day"] as const) {
      it(`${window} window`, async ({ expect }) => {
        const limits = { minute: 1000, hour: 1000, day: 1000, [window]: 2 };
        const { client } = await keyWith(limits);
        const seconds = WINDOW_SECONDS[window];

        const first = await client.get("/api/v1/videos");
        const second = await client.get("/api/v1/videos");
        expect([first.status, second.status]).toEqual([200, 200]);
        expect(first.headers.get("x-ratelimit-window")).toBe(window);
        expect(first.headers.get("x-ratelimit-remaining")).toBe("1");
        expect(second.headers.get("x-ratelimit-remaining")).toBe("0");

        const refused = await client.get("/api/v1/videos");
        const retryAfter = expectRateLimited(refused, window, 2);
        expect(retryAfter).toBeLessThanOrEqual(seconds);
        expect(Number(refused.headers.get("x-ratelimit-reset"))).toBeLessThanOrEqual(nowSeconds() + seconds + 1);
        // Writes are refused as well, and nothing is written.
        const write = await client.post("/api/v1/folders", { folder_name: "refused" });
        expect(write.status).toBe(429);

        await sleep(retryAfter * 1000 + 250);
        const again = await client.get("/api/v1/videos");
        expect(again.status, again.text).toBe(200);
        expect(again.headers.get("x-ratelimit-window")).toBe(window);
        expect(again.headers.get("x-ratelimit-remaining")).toBe("1");
      });
    }
  });

  it("limits a test key like a live key", async () => {
    const { client } = await keyWith({ minute: 2 }, { mode: "test" });
    for (let i = 0; i < 2; i++) {
      const ok = await client.get("/api/v1/videos");
      expect(ok.status, ok.text).toBe(200);
      expect(ok.headers.get("x-test-mode")).toBe("true");
    }
    const refused = await client.post("/api/v1/videos", { video_name: "not even simulated" });
    expectRateLimited(refused, "minute", 2);
    expect(refused.headers.get("x-test-mode")).toBe("true");
    expect(refused.body.error.livemode).toBe(false);
  });
});

describe("heavy requests", () => {
  it("counts an ndjson or csv export as 10 units", async () => {
    const { client } = await keyWith({ minute: 100 });
    await client.post("/api/v1/videos", { video_name: "exported" }); // 1 unit
    const ndjson = await client.get("/api/v1/videos?format=ndjson");
    expect(ndjson.status, ndjson.text).toBe(200);
    expect(ndjson.text.trim().split("\n")).toHaveLength(1);
    expect(ndjson.headers.get("x-ratelimit-remaining")).toBe(String(100 - 1 - 10));
    const csv = await client.get("/api/v1/videos", { headers: { accept: "text/csv" } });
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers.get("x-ratelimit-remaining")).toBe(String(100 - 1 - 10 - 10));
    const plain = await client.get("/api/v1/videos");
    expect(plain.headers.get("x-ratelimit-remaining")).toBe(String(100 - 1 - 10 - 10 - 1));
  });

  it("refuses an export that does not fit in the window", async () => {
    const { client } = await keyWith({ minute: 5 });
    const refused = await client.get("/api/v1/videos?format=ndjson");
    expectRateLimited(refused, "minute", 5);
  });

  it("counts a bulk call as one unit per item, before running any item", async () => {
    const { client, workspaceId } = await keyWith({ minute: 100 });
    const bulk = await client.post("/api/v1/videos/bulk", { create: [{ video_name: "a" }, { video_name: "b" }, { video_name: "c" }] });
    expect(bulk.status, bulk.text).toBe(200);
    expect(bulk.body.succeeded).toBe(3);
    expect(bulk.headers.get("x-ratelimit-remaining")).toBe("97");
    const next = await client.get("/api/v1/videos");
    expect(next.headers.get("x-ratelimit-remaining")).toBe("96");

    // Six items against a window of five: refused whole, nothing created.
    const small = await keyWith({ minute: 5 });
    const refused = await small.client.post("/api/v1/videos/bulk", { create: Array.from({ length: 6 }, (_, i) => ({ video_name: `v${i}` })) });
    expectRateLimited(refused, "minute", 5);
    expect(await prisma().video.count({ where: { workspace_id: small.workspaceId } })).toBe(0);
    expect(await prisma().video.count({ where: { workspace_id: workspaceId } })).toBe(3);
  });

  it("counts every batch member on its own, besides the batch call", async () => {
    const { client } = await keyWith({ minute: 100 });
    const members = [1, 2, 3].map((n) => ({ id: `m${n}`, method: "GET", path: "/v1/videos" }));
    const batch = await client.post("/api/v1/batch", { requests: members });
    expect(batch.status, batch.text).toBe(200);
    expect(batch.body.data.map((member: Row) => member.status)).toEqual([200, 200, 200]);
    const next = await client.get("/api/v1/videos");
    expect(next.headers.get("x-ratelimit-remaining")).toBe(String(100 - 1 - 3 - 1));

    // A window of 3: the batch call (1) and two members fit; the third member is refused on its own.
    const small = await keyWith({ minute: 3 });
    const partly = await small.client.post("/api/v1/batch", { requests: members });
    expect(partly.status, partly.text).toBe(200);
    const [m1, m2, m3] = partly.body.data as Row[];
    expect([m1!.status, m2!.status, m3!.status]).toEqual([200, 200, 429]);
    expect(m3!.body.error).toMatchObject({ code: "rate_limit_exceeded", retryable: true, details: { window: "minute" } });
    expect(Number(m3!.headers["retry-after"])).toBeGreaterThanOrEqual(1);
  });
});

describe("requests without a valid key", () => {
  it("limits them per address; 401s carry the address's rate headers", async () => {
    const address = freshAddress();
    const statuses: number[] = [];
    const cases: Record<string, string>[] = [{}, { authorization: "Bearer sk_live_notarealkeynotarealkeynotareal12" }, { "x-api-key": "nonsense" }];
    for (const [index, headers] of cases.entries()) {
      const response = await fromAddress(address, "/api/v1/videos", headers);
      statuses.push(response.status);
      expect(response.body.error.code).toBe(index === 0 ? "missing_credentials" : "invalid_credentials");
      expectRateHeaders(response, { limit: ANONYMOUS_PER_MINUTE, remaining: ANONYMOUS_PER_MINUTE - 1 - index, window: "anonymous_minute", seconds: WINDOW_SECONDS.minute });
      expect(response.headers.get("x-request-id")).toBe(response.body.error.request_id);
    }
    expect(statuses).toEqual([401, 401, 401]);

    const refused = await fromAddress(address, "/api/v1/videos");
    const retryAfter = expectRateLimited(refused, "anonymous_minute", ANONYMOUS_PER_MINUTE);

    // Another address has its own window; a valid key from the spent address is not limited by it.
    const elsewhere = await fromAddress(freshAddress(), "/api/v1/videos");
    expect(elsewhere.status).toBe(401);
    const { key } = await createFixture(service);
    const keyed = await fromAddress(address, "/api/v1/videos", { authorization: `Bearer ${key}` });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get("x-ratelimit-window")).not.toBe("anonymous_minute");

    await sleep(retryAfter * 1000 + 250);
    const afterReset = await fromAddress(address, "/api/v1/videos");
    expect(afterReset.status).toBe(401);
    expect(afterReset.headers.get("x-ratelimit-remaining")).toBe(String(ANONYMOUS_PER_MINUTE - 1));
  });

  it("reports rate headers on GET /api/v1/health too", async () => {
    const address = freshAddress();
    const health = await fromAddress(address, "/api/v1/health");
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ object: "health", status: "ok" });
    expectRateHeaders(health, { limit: ANONYMOUS_PER_MINUTE, remaining: ANONYMOUS_PER_MINUTE - 1, window: "anonymous_minute", seconds: WINDOW_SECONDS.minute });
    expect(policyOf(health.headers)).toEqual([{ limit: ANONYMOUS_PER_MINUTE, seconds: WINDOW_SECONDS.minute, rest: "" }]);
    expect(health.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("never refuses GET /api/v1/health: past the address's window it still answers 200, showing none left", async () => {
    const address = freshAddress();
    for (let index = 0; index < ANONYMOUS_PER_MINUTE + 2; index++) {
      const health = await fromAddress(address, "/api/v1/health");
      expect(health.status).toBe(200);
    }
    const last = await fromAddress(address, "/api/v1/health");
    expect(last.status).toBe(200);
    expect(last.headers.get("x-ratelimit-remaining")).toBe("0");
  });
});

describe("monthly quota", () => {
  it("a request quota: the 4th request of 3 is 429 quota_exceeded until the first of next month", async () => {
    const { client } = await keyWith(undefined, { quota: { limit: 3, unit: "requests" } });
    const reset = firstOfNextMonthUtc();
    const responses = [await client.get("/api/v1/videos"), await client.get("/api/v1/videos/vid_doesnotexist000000000"), await client.post("/api/v1/folders", { folder_name: "q" })];
    expect(responses.map((response) => response.status)).toEqual([200, 404, 201]);
    for (const [index, response] of responses.entries()) {
      expect(response.headers.get("x-quota-limit")).toBe("3");
      expect(response.headers.get("x-quota-remaining")).toBe(String(2 - index));
      expect(response.headers.get("x-quota-reset")).toBe(String(reset));
      expect(response.headers.get("x-quota-unit")).toBe("requests");
    }

    const refused = await client.get("/api/v1/videos");
    expect(refused.status, refused.text).toBe(429);
    expect(refused.body.error).toMatchObject({ type: "rate_limit_error", code: "quota_exceeded", status: 429, retryable: false });
    const retryAfter = Number(refused.headers.get("retry-after"));
    const expected = reset - Date.now() / 1000;
    expect(Math.abs(retryAfter - expected)).toBeLessThanOrEqual(5);
    expect(refused.headers.get("x-quota-limit")).toBe("3");
    expect(refused.headers.get("x-quota-remaining")).toBe("0");
    expect(refused.headers.get("x-quota-reset")).toBe(String(reset));
    expect(refused.headers.get("x-quota-unit")).toBe("requests");
    // The rate windows are still reported.
    expect(refused.headers.get("x-ratelimit-limit")).toBeTruthy();

    // Still refused: a refused request does not free anything.
    expect((await client.get("/api/v1/videos")).body.error.code).toBe("quota_exceeded");
  });

  it("a credits quota is reported in credits and is not spent by plain requests", async () => {
    const { client } = await keyWith(undefined, { quota: { limit: 50, unit: "credits" } });
    for (let i = 0; i < 2; i++) {
      const response = await client.get("/api/v1/videos");
      expect(response.status).toBe(200);
      expect(response.headers.get("x-quota-unit")).toBe("credits");
      expect(response.headers.get("x-quota-limit")).toBe("50");
      expect(response.headers.get("x-quota-remaining")).toBe("50");
      expect(response.headers.get("x-quota-reset")).toBe(String(firstOfNextMonthUtc()));
    }
    const usage = await client.get("/api/v1/usage");
    expect(usage.status, usage.text).toBe(200);
    expect(usage.body.quota).toMatchObject({ limit: 50, unit: "credits", used: 0, remaining: 50 });
  });

  it("a call refused for lack of credits uses none of the credits quota", async () => {
    const { client, workspaceId } = await keyWith(undefined, { quota: { limit: 50, unit: "credits" } });
    const video = await client.post("/api/v1/videos", {
      video_name: "Quota",
      composition: { duration: 1, fps: 10, layers: [{ type: "tone", frequency: 440, volume: 0.2 }] },
    });
    expect(video.status, video.text).toBe(201);

    const refused = await client.post("/api/v1/actions/renders.create", { video_id: video.body.video_id });
    expect(refused.status, refused.text).toBe(402);
    expect(refused.headers.get("x-quota-remaining")).toBe("50");

    await prisma().$transaction((tx) => addCredits(tx, { workspaceId, amount: 20, actionType: "grant" }));
    const paid = await client.post("/api/v1/actions/renders.create", { video_id: video.body.video_id });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.headers.get("x-quota-remaining")).toBe(String(50 - paid.body.credits.charged));
  });

  it("a key without a quota sends no X-Quota-* headers", async () => {
    const { client } = await createFixture(service);
    const response = await client.get("/api/v1/videos");
    expect([...response.headers.keys()].filter((name) => name.startsWith("x-quota-"))).toEqual([]);
  });

  it("reports X-Quota-* on a rate-limited response of a key with a quota too", async () => {
    const { client } = await keyWith({ minute: 1 }, { quota: { limit: 10, unit: "requests" } });
    expect((await client.get("/api/v1/videos")).status).toBe(200);
    const refused = await client.get("/api/v1/videos");
    expect(refused.body.error.code).toBe("rate_limit_exceeded");
    expect(refused.headers.get("x-quota-limit")).toBe("10");
    expect(refused.headers.get("x-quota-remaining")).toBe("9");
    expect(refused.headers.get("x-quota-unit")).toBe("requests");
  });
});
