// Rate windows per key (contract 8): minute, hour and day for every call, and a much tighter
// daily budget for calls that spend credits. Counted atomically in Redis by rate-limiter-flexible;
// if Redis fails, a per-process memory limiter stands in rather than letting everything through.
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { Redis } from "ioredis";
import { ApiError } from "../errors/api-error.js";
import type { RateLimits, RateWindow } from "../config.js";
import { logger } from "../logger.js";
import { redisScript } from "../redis/script.js";

/**
 * Every window a request counts against, in one round trip: each is checked before any is
 * counted, so a refused call counts nothing anywhere. Counters are the ones rate-limiter-flexible
 * keeps (`rl:<window>:<key id>`, a count expiring with its window), so standings() and the memory
 * fallback read the same state. (The monthly quota is counted in PostgreSQL: src/guards/quota.ts.)
 * KEYS: the window counters. ARGV: window count, then amount/limit/window ms per window.
 * Returns {1, count, pttl, ...} or {0, refused window index, its count, its pttl}.
 */
const CONSUME_SCRIPT = redisScript(`
local windows = tonumber(ARGV[1])
for i = 1, windows do
  local used = tonumber(redis.call('GET', KEYS[i]) or '0')
  if used + tonumber(ARGV[i * 3 - 1]) > tonumber(ARGV[i * 3]) then
    return {0, i, used, redis.call('PTTL', KEYS[i])}
  end
end
local result = {1}
for i = 1, windows do
  local count = redis.call('INCRBY', KEYS[i], ARGV[i * 3 - 1])
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[i], ARGV[i * 3 + 1])
    ttl = tonumber(ARGV[i * 3 + 1])
  end
  result[#result + 1] = count
  result[#result + 1] = ttl
end
return result`);

export interface ConsumeResult {
  standings: WindowStanding[];
}

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

  private refusal(window: WindowStanding["window"], state: WindowStanding, msBeforeNext: number, limit: number, policy?: PolicyEntry[]): ApiError {
    const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
    return new ApiError("rate_limit_exceeded", `The ${window.replace("_", " ")} rate window of this ${window === "anonymous_minute" ? "address" : "key"} is spent; retry in ${retryAfter} s.`, {
      headers: { "Retry-After": String(retryAfter), ...rateLimitHeaders([state], policy) },
      details: { window, limit, retry_after: retryAfter },
    });
  }

  private async consumeOne(window: WindowStanding["window"], subject: string, points: number, limit: number, seconds: number, policy?: PolicyEntry[]): Promise<WindowStanding> {
    try {
      const result = await this.limiter(window, limit, seconds).consume(subject, points);
      return standing(window, limit, seconds, result);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw this.refusal(window, standing(window, limit, seconds, rejection), rejection.msBeforeNext, limit, policy);
    }
  }

  /**
   * Counts `points` against a key's call windows (its credits budget too when `spendsCredits`),
   * in one Redis round trip: all are checked first, and a refused call counts nothing. Throws 429
   * rate_limit_exceeded (the first spent window, tightest first). When Redis fails, the windows
   * are counted by the per-process memory limiters one by one, as before.
   */
  async consumeAll(keyId: string, limits: RateLimits, points: number, options: { spendsCredits?: boolean } = {}): Promise<ConsumeResult> {
    const now = new Date();
    const policy = keyPolicy(limits, this.options.windowSeconds);
    // The credits budget counts calls that spend, whatever their weight; nothing to count is
    // not counted (a 0-point window on its limit must not refuse a request already admitted).
    const windows = (options.spendsCredits ? [...CALL_WINDOWS, "credits_day" as const] : CALL_WINDOWS)
      .map((window) => ({ window, amount: window === "credits_day" ? 1 : points, limit: limits[window], seconds: this.options.windowSeconds[window] }))
      .filter((window) => window.amount > 0);
    if (windows.length === 0) return { standings: [] };

    const keys = windows.map(({ window }) => `rl:${window}:${keyId}`);
    const args: string[] = [String(windows.length)];
    for (const window of windows) args.push(String(window.amount), String(window.limit), String(window.seconds * 1000));
    let reply: number[];
    try {
      reply = (await CONSUME_SCRIPT.run(this.options.redis, keys, args)) as number[];
    } catch (error) {
      logger.warn({ err: error }, "rate windows counted in memory: Redis did not answer");
      return { standings: await this.consume(keyId, limits, points, options.spendsCredits) };
    }
    const stateOf = (index: number, count: number, ttl: number): WindowStanding => {
      const { window, limit, seconds } = windows[index]!;
      const msBeforeNext = ttl > 0 ? ttl : seconds * 1000;
      return { window, limit, seconds, remaining: Math.max(0, Math.min(limit, limit - count)), reset: Math.ceil((now.getTime() + msBeforeNext) / 1000) };
    };
    if (reply[0] === 0) {
      const index = reply[1]! - 1;
      const ttl = reply[3]! > 0 ? reply[3]! : windows[index]!.seconds * 1000;
      // A refused window reports nothing left, whatever smaller call would still fit.
      throw this.refusal(windows[index]!.window, { ...stateOf(index, reply[2]!, ttl), remaining: 0 }, ttl, windows[index]!.limit, policy);
    }
    const standings = windows.map((_, index) => stateOf(index, reply[1 + index * 2]!, reply[2 + index * 2]!));
    return { standings };
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
