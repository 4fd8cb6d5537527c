// How provider calls fail and recover, against the stand-in: retries on 429 (honouring
// Retry-After) and 5xx for the AI SDK's calls and the hand adapters alike, no retry on other 4xx,
// permanent failures and time limits as upstream_error 502 with safe messages, the caller's own
// abort left as it is, and a long-running job resumed by its request id without a second submit.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "../src/errors/api-error.js";
import { STAND_IN_KEYS, startProviderStandIn, type ProviderStandIn } from "./support/provider-standin/index.js";
import { probeBytes, standInProviders } from "./support/provider-standin/inspect.js";

let standIn: ProviderStandIn;

beforeAll(async () => {
  standIn = await startProviderStandIn();
});
afterAll(async () => {
  await standIn.close();
});
beforeEach(() => standIn.reset());

/** The error a call rejects with (fails the test when it resolves). */
async function failureOf(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error("the call succeeded");
}

/** Asserts an upstream_error 502 naming the provider, whose client-visible parts leak nothing. */
function expectUpstream(error: unknown, details: Record<string, unknown>): ApiError {
  expect(error).toBeInstanceOf(ApiError);
  const apiError = error as ApiError;
  expect(apiError.code).toBe("upstream_error");
  expect(apiError.status).toBe(502);
  expect(apiError.retryable).toBe(true);
  expect(apiError.details).toMatchObject(details);
  expect(apiError.message).toContain(String(details.provider));
  const visible = JSON.stringify({ message: apiError.message, details: apiError.details, hint: apiError.hint });
  for (const key of Object.values(STAND_IN_KEYS)) expect(visible).not.toContain(key);
  expect(visible).not.toContain(standIn.url);
  expect(visible).not.toMatch(/\n\s+at /);
  return apiError;
}

/** A port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("retries", () => {
  it("retries a rate-limited AI SDK call after Retry-After, then succeeds", async () => {
    standIn.rateLimitNext("openai.chat", { times: 2, retryAfter: 0 });
    const result = await standInProviders(standIn).get("text").generateText({ prompt: "Hello after a wait" });
    expect(result.text).toContain("Hello after a wait");
    expect(standIn.calls("openai.chat").map((call) => call.status)).toEqual([429, 429, 200]);
  });

  it("retries an AI SDK call that answered 500, then succeeds", async () => {
    standIn.failNext("openai.images.generations", { status: 500 });
    const result = await standInProviders(standIn).get("image").generate({ prompt: "a tram", size: "64x64" });
    expect(result.images).toHaveLength(1);
    expect(standIn.calls("openai.images.generations").map((call) => call.status)).toEqual([500, 200]);
  });

  it("honours Retry-After in the hand adapters instead of their own backoff", async () => {
    standIn.rateLimitNext("searxng.search", { times: 1, retryAfter: 1 });
    const result = await standInProviders(standIn).get("search").search({ query: "patience" });
    expect(result.results.length).toBeGreaterThan(0);
    const [limited, retried] = standIn.calls("searxng.search");
    expect([limited?.status, retried?.status]).toEqual([429, 200]);
    // The configured backoff is 50 ms; only Retry-After explains a pause of about a second.
    expect(retried!.at - limited!.at).toBeGreaterThanOrEqual(950);
    expect(retried!.at - limited!.at).toBeLessThan(1900);
  });

  it("retries 5xx in fal's queue protocol (submit and polls) without submitting twice", async () => {
    standIn.failNext("fal.submit", { status: 503 });
    standIn.failNext("fal.status", { status: 502, times: 2 });
    const result = await standInProviders(standIn).get("cutout").run({ image: (await standInProviders(standIn).get("image").generate({ prompt: "x", size: "64x64" })).images[0]! });
    expect(result.outputs).toHaveLength(1);
    expect(standIn.calls("fal.submit").map((call) => call.status)).toEqual([503, 200]);
    expect(standIn.calls("fal.status").map((call) => call.status)).toEqual([502, 502, 202, 202, 200]);
  });

  it("gives up after the configured retries: three attempts, then upstream_error naming the status", async () => {
    standIn.failNext("searxng.search", { status: 503, times: 5 });
    const error = await failureOf(standInProviders(standIn).get("search").search({ query: "down" }));
    expectUpstream(error, { provider: "searxng", capability: "search", model: "general", provider_status: 503, reason: "http_status" });
    expect(standIn.calls("searxng.search")).toHaveLength(3);
  });

  it("does not retry a refusal (4xx other than 429)", async () => {
    standIn.failNext("fal.submit", { status: 422, body: { detail: [{ msg: "prompt is too long", loc: ["body", "prompt"] }] } });
    const error = await failureOf(standInProviders(standIn).get("video").run({ prompt: "too long" }));
    expectUpstream(error, { provider: "fal", capability: "video", provider_status: 422 });
    expect(standIn.calls("fal.submit")).toHaveLength(1);
    expect(standIn.calls("fal.status")).toHaveLength(0);

    standIn.failNext("openai.chat", { status: 401 });
    const unauthorised = await failureOf(standInProviders(standIn).get("text").generateText({ prompt: "x" }));
    expectUpstream(unauthorised, { provider: "openai", provider_status: 401, provider_code: "http_401" });
    expect(standIn.calls("openai.chat")).toHaveLength(1);
  });
});

describe("permanent failures", () => {
  it("reports an AI SDK call that keeps failing as upstream_error, without the provider's words", async () => {
    standIn.failNext("openai.chat", { status: 500, body: { error: { message: `key ${STAND_IN_KEYS.openai} at ${standIn.url} broke`, code: "server_error" } } });
    const error = await failureOf(standInProviders(standIn, { CUTROOM_PROVIDER_MAX_RETRIES: "0" }).get("text").generateText({ prompt: "x" }));
    const apiError = expectUpstream(error, { provider: "openai", capability: "text", model: "gpt-4.1-mini", provider_status: 500, provider_code: "server_error" });
    expect(apiError.message).toBe("The openai text call failed: it answered HTTP 500.");
  });

  it("reports an answer that does not match the schema as upstream_error", async () => {
    standIn.answerNext("openai.chat", { title: 42 });
    const error = await failureOf(standInProviders(standIn).get("text").generateObject({ prompt: "x", schema: z.object({ title: z.string() }), schemaName: "t" }));
    expectUpstream(error, { provider: "openai", reason: "invalid_answer" });
  });

  it("reports a fal result without media as a failed job", async () => {
    standIn.answerNext("fal.result", { detail: "nothing made" });
    const error = await failureOf(standInProviders(standIn).get("music").run({ prompt: "silence" }));
    expectUpstream(error, { provider: "fal", capability: "music", reason: "job_failed" });
  });

  it("reports an unreachable provider as upstream_error", async () => {
    const port = await closedPort();
    const searx = standInProviders(standIn, { SEARXNG_URL: `http://127.0.0.1:${port}` });
    expectUpstream(await failureOf(searx.get("search").search({ query: "x" })), { provider: "searxng", reason: "unreachable" });
    const openai = standInProviders(standIn, { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, CUTROOM_PROVIDER_MAX_RETRIES: "0" });
    expectUpstream(await failureOf(openai.get("text").generateText({ prompt: "x" })), { provider: "openai", reason: "unreachable" });
  });
});

describe("time limits and aborts", () => {
  it("stops an AI SDK call at the time limit: upstream_error, reason timeout", async () => {
    standIn.slowNext("openai.chat", 3000);
    const started = performance.now();
    const error = await failureOf(standInProviders(standIn, { CUTROOM_PROVIDER_TIMEOUT_MS: "300" }).get("text").generateText({ prompt: "slow" }));
    expect(performance.now() - started).toBeLessThan(2000);
    const apiError = expectUpstream(error, { provider: "openai", reason: "timeout" });
    expect(apiError.message).toBe("The openai text call failed: no answer within 300 ms.");
  });

  it("stops a hand adapter's call at the time limit", async () => {
    standIn.slowNext("elevenlabs.speech", 3000);
    const started = performance.now();
    const error = await failureOf(standInProviders(standIn, { CUTROOM_PROVIDER_TIMEOUT_MS: "300" }).get("speech").synthesize({ text: "slow" }));
    expect(performance.now() - started).toBeLessThan(2000);
    expectUpstream(error, { provider: "elevenlabs", capability: "speech", reason: "timeout" });
  });

  it("stops a long-running job at its overall limit", async () => {
    const error = await failureOf(standInProviders(standIn, { CUTROOM_PROVIDER_LONG_TIMEOUT_MS: "200", CUTROOM_PROVIDER_POLL_INTERVAL_MS: "1000" }).get("video").run({ prompt: "never finishes in time" }));
    expectUpstream(error, { provider: "fal", capability: "video", reason: "timeout" });
    expect(standIn.calls("fal.result")).toHaveLength(0);
  });

  it("leaves the caller's own abort as it is (not an upstream failure)", async () => {
    standIn.slowNext("openai.chat", 3000);
    const controller = new AbortController();
    const call = standInProviders(standIn).get("text").generateText({ prompt: "cancel me" }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("the user cancelled")), 100);
    const error = await failureOf(call);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).message).toBe("the user cancelled");
  });
});

describe("output downloads", () => {
  it("follows a redirect of an output URL through the guard", async () => {
    const providers = standInProviders(standIn);
    await providers.get("video").run({ prompt: "first", durationSeconds: 1 });
    const name = standIn.calls("media")[0]!.path.split("/").pop()!;
    standIn.answerNext("fal.result", { video: { url: `${standIn.url}/media-moved/${name}`, content_type: "video/mp4" } });
    const result = await providers.get("video").run({ prompt: "moved", durationSeconds: 1 });
    expect(result.outputs[0]?.mediaType).toBe("video/mp4");
    expect(standIn.calls("media").slice(1).map((call) => call.status)).toEqual([302, 200]);
  });

  it("refuses an output URL on an address the guard does not allow", async () => {
    standIn.answerNext("fal.result", { video: { url: "https://10.20.30.40/private.mp4", content_type: "video/mp4" } });
    const error = await failureOf(standInProviders(standIn).get("video").run({ prompt: "pointing inside" }));
    expectUpstream(error, { provider: "fal", capability: "video", reason: "output_url_refused" });
  });
});

describe("long-running resume", () => {
  it("polls a saved request id instead of submitting again", async () => {
    const providers = standInProviders(standIn);
    const controller = new AbortController();
    let saved: string | undefined;
    // The first attempt dies right after fal accepted the job (a worker lost mid-poll).
    const first = await failureOf(providers.get("video").run({ prompt: "resume me", durationSeconds: 1 }, {
      signal: controller.signal,
      onSubmitted: async (requestId) => {
        saved = requestId;
        controller.abort(new Error("worker stopped"));
      },
    }));
    expect((first as Error).message).toBe("worker stopped");
    expect(saved).toBeDefined();
    expect(standIn.calls("fal.submit")).toHaveLength(1);

    let submittedAgain = false;
    const result = await providers.get("video").run({ prompt: "resume me", durationSeconds: 1 }, { resume: saved, onSubmitted: async () => void (submittedAgain = true) });
    expect(submittedAgain).toBe(false);
    expect(result.requestId).toBe(saved);
    expect(standIn.calls("fal.submit")).toHaveLength(1);
    expect(new Set(standIn.calls("fal.status").map((call) => call.summary.request_id))).toEqual(new Set([saved]));
    const probe = await probeBytes(result.outputs[0]!.data, "mp4");
    expect(probe.duration).toBeCloseTo(1, 0);
  });

  it("reports a resume of an id the provider does not know as upstream_error 404", async () => {
    const error = await failureOf(standInProviders(standIn).get("music").run({ prompt: "x" }, { resume: "no-such-request" }));
    expectUpstream(error, { provider: "fal", provider_status: 404 });
    expect(standIn.calls("fal.submit")).toHaveLength(0);
  });
});
