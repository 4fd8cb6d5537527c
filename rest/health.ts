// GET /api/v1/health: no key, always 200; a failing dependency shows in the body only
// (contract 4.6), so a caller can tell an outage from a bad credential.
import { API_VERSION } from "../src/config.js";
import type { SqlRunner } from "../src/db/sql-runner.js";
import { currentRequestContext } from "../src/context/request-context.js";

export interface HealthDependencies {
  sql: SqlRunner;
  /** Optional extra checks (e.g. Redis), each resolving when healthy. */
  checks?: Record<string, () => Promise<unknown>>;
}

const CHECK_TIMEOUT_MS = 2000;

async function timed(check: () => Promise<unknown>): Promise<{ status: "ok" | "down"; latency_ms: number; error?: string }> {
  const started = performance.now();
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS).unref()),
    ]);
    return { status: "ok", latency_ms: Math.round((performance.now() - started) * 100) / 100 };
  } catch (error) {
    return { status: "down", latency_ms: Math.round((performance.now() - started) * 100) / 100, error: (error as Error).message.slice(0, 200) };
  }
}

export async function healthBody(dependencies: HealthDependencies) {
  // All checks at once: the answer waits for the slowest one, not for their sum.
  const entries = await Promise.all([
    timed(() => dependencies.sql.query("SELECT 1")).then((result) => ["database", result] as const),
    ...Object.entries(dependencies.checks ?? {}).map(async ([name, check]) => [name, await timed(check)] as const),
  ]);
  const checks = Object.fromEntries(entries);
  const healthy = Object.values(checks).every((check) => check.status === "ok");
  return {
    object: "health",
    status: healthy ? "ok" : "degraded",
    api_version: API_VERSION,
    checks,
    time: new Date().toISOString(),
    // Every body carries the request id its X-Request-Id header gives (contract 4.1.5).
    request_id: currentRequestContext()?.requestId ?? "",
  };
}
