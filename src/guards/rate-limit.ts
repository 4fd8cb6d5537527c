// Rate windows per key (contract 8): minute, hour and day for every call, and a much tighter
// daily budget for calls that spend credits. Counted atomically in Redis by rate-limiter-flexible;
// if Redis fails, a per-process memory limiter stands in rather than letting everything through.
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { Redis } from "ioredis";
import { ApiError } from "../errors/api-error.js";
import type { RateLimits, RateWindow } from "../config.js";

export interface WindowStanding {
  window: RateWindow | "anonymous_minute";
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  reset: number;
  seconds: number;
}

export interface RateLimiterOptions {
  redis: Redis;
  windowSeconds: Record<RateWindow, number>;
  anonymousPerMinute: number;
}

const CALL_WINDOWS: readonly RateWindow[] = ["minute", "hour", "day"];

export class RateLimitService {
  private readonly limiters = new Map<string, RateLimiterRedis>();

  constructor(private readonly options: RateLimiterOptions) {}

  private limiter(window: string, points: number, seconds: number): RateLimiterRedis {
    const cacheKey = `${window}:${points}:${seconds}`;
    let limiter = this.limiters.get(cacheKey);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.options.redis,
        keyPrefix: `rl:${window}`,
        points,
        duration: seconds,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: `rl-mem:${window}`, points, duration: seconds }),
      });
      this.limiters.set(cacheKey, limiter);
    }
    return limiter;
  }

  private async consumeOne(window: WindowStanding["window"], subject: string, points: number, limit: number, seconds: number, policy?: PolicyEntry[]): Promise<WindowStanding> {
    try {
      const result = await this.limiter(window, limit, seconds).consume(subject, points);
      return standing(window, limit, seconds, result);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const state = standing(window, limit, seconds, rejection);
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new ApiError("rate_limit_exceeded", `The ${window.replace("_", " ")} rate window of this ${window === "anonymous_minute" ? "address" : "key"} is spent; retry in ${retryAfter} s.`, {
        headers: { "Retry-After": String(retryAfter), ...rateLimitHeaders([state], policy) },
        details: { window, limit, retry_after: retryAfter },
      });
    }
  }

  /**
   * Counts `points` against a key's call windows (and its credits budget when `spendsCredits`),
   * tightest first, stopping at the first window that is spent.
   */
  async consume(keyId: string, limits: RateLimits, points: number, spendsCredits = false): Promise<WindowStanding[]> {
    const windows = spendsCredits ? [...CALL_WINDOWS, "credits_day" as const] : CALL_WINDOWS;
    const policy = keyPolicy(limits, this.options.windowSeconds);
    const standings: WindowStanding[] = [];
    for (const window of windows) {
      // The credits budget counts calls that spend, whatever their weight.
      const amount = window === "credits_day" ? 1 : points;
      // Nothing to count: skip the round trip (and rate-limiter-flexible would refuse a 0-point
      // consume on a window already at its limit, failing a request that was admitted).
      if (amount <= 0) continue;
      standings.push(await this.consumeOne(window, keyId, amount, limits[window], this.options.windowSeconds[window], policy));
    }
    return standings;
  }

  /** Requests without a valid key are limited per client address. */
  consumeAnonymous(ip: string): Promise<WindowStanding> {
    return this.consumeOne("anonymous_minute", ip, 1, this.options.anonymousPerMinute, this.options.windowSeconds.minute);
  }

  /** The current standing of every window of a key, without consuming (for /usage). */
  async standings(keyId: string, limits: RateLimits): Promise<WindowStanding[]> {
    const all: RateWindow[] = ["minute", "hour", "day", "credits_day"];
    return Promise.all(
      all.map(async (window) => {
        const seconds = this.options.windowSeconds[window];
        const result = await this.limiter(window, limits[window], seconds).get(keyId);
        return result ? standing(window, limits[window], seconds, result) : { window, limit: limits[window], remaining: limits[window], reset: Math.ceil(Date.now() / 1000) + seconds, seconds };
      }),
    );
  }
}

function standing(window: WindowStanding["window"], limit: number, seconds: number, result: RateLimiterRes): WindowStanding {
  return {
    window,
    limit,
    remaining: Math.max(0, Math.min(limit, result.remainingPoints)),
    reset: Math.ceil((Date.now() + result.msBeforeNext) / 1000),
    seconds,
  };
}

export interface PolicyEntry {
  window: WindowStanding["window"];
  limit: number;
  seconds: number;
}

/**
 * X-RateLimit-* report the tightest window consumed (least remaining, then the shortest);
 * X-RateLimit-Policy lists every window that applies (the consumed ones when none are given).
 */
export function rateLimitHeaders(consumed: WindowStanding[], policy: PolicyEntry[] = consumed): Record<string, string> {
  const tightest = tightestOf(consumed);
  if (!tightest) return {};
  return {
    "X-RateLimit-Limit": String(tightest.limit),
    "X-RateLimit-Remaining": String(tightest.remaining),
    "X-RateLimit-Reset": String(tightest.reset),
    "X-RateLimit-Window": tightest.window,
    "X-RateLimit-Policy": policy.map((entry) => `${entry.limit};w=${entry.seconds}${entry.window === "credits_day" ? ';name="credits"' : ""}`).join(", "),
  };
}

/** The window a request's standing is reported by: least remaining, then the shortest. */
export function tightestOf(consumed: readonly WindowStanding[]): WindowStanding | undefined {
  return [...consumed].sort((a, b) => a.remaining - b.remaining || a.seconds - b.seconds)[0];
}

export function keyPolicy(limits: RateLimits, windowSeconds: Record<RateWindow, number>): PolicyEntry[] {
  return (["minute", "hour", "day", "credits_day"] as const).map((window) => ({ window, limit: limits[window], seconds: windowSeconds[window] }));
}

/** The key's effective windows: its overrides over the defaults. */
export function effectiveLimits(defaults: RateLimits, overrides: unknown): RateLimits {
  const result = { ...defaults };
  if (overrides && typeof overrides === "object") {
    for (const [window, value] of Object.entries(overrides)) {
      if (window in result && typeof value === "number" && Number.isInteger(value) && value > 0) result[window as RateWindow] = value;
    }
  }
  return result;
}
