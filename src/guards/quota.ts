// Monthly quotas (contract 8): a key may carry a ceiling on requests or on credits per calendar
// month (UTC). Counted in Redis under a key per month, so a new month starts from zero.
import type { KeyQuota } from "../context/auth-context.js";
import type { Redis } from "ioredis";
import { ApiError } from "../errors/api-error.js";
import { redisScript } from "../redis/script.js";


export interface QuotaStanding extends KeyQuota {
  used: number;
  remaining: number;
  /** Unix seconds at the start of the next month. */
  reset: number;
}

export type { KeyQuota } from "../context/auth-context.js";

export function periodStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export function nextPeriodStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

export function standingOf(quota: KeyQuota, used: number, now: Date): QuotaStanding {
  return { ...quota, used, remaining: Math.max(0, quota.limit - used), reset: Math.floor(nextPeriodStart(now).getTime() / 1000) };
}

export function counterKey(keyId: string, now: Date): string {
  return `quota:${keyId}:${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
}

export function quotaHeaders(standing: QuotaStanding | undefined): Record<string, string> {
  if (!standing) return {};
  return {
    "X-Quota-Limit": String(standing.limit),
    "X-Quota-Remaining": String(standing.remaining),
    "X-Quota-Reset": String(standing.reset),
    "X-Quota-Unit": standing.unit,
  };
}

export function exceeded(standing: QuotaStanding, now: Date): ApiError {
  const retryAfter = Math.max(1, Math.ceil((standing.reset * 1000 - now.getTime()) / 1000));
  return new ApiError("quota_exceeded", `This key's monthly quota of ${standing.limit} ${standing.unit} is spent; it renews on ${new Date(standing.reset * 1000).toISOString()}.`, {
    headers: { "Retry-After": String(retryAfter), ...quotaHeaders(standing) },
    details: { limit: standing.limit, unit: standing.unit, used: standing.used, resets_at: new Date(standing.reset * 1000).toISOString() },
  });
}

/** Where a request quota's counter lives and when it lapses, for a script that counts it (rate-limit.ts). */
export function quotaCounter(keyId: string, now: Date): { key: string; expireAt: number } {
  return { key: counterKey(keyId, now), expireAt: Math.floor(nextPeriodStart(now).getTime() / 1000) + 7 * 86_400 };
}

// Atomic check-and-add: never counts past the ceiling, even under concurrent calls.
const CONSUME_QUOTA = redisScript(`local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used + tonumber(ARGV[1]) > tonumber(ARGV[2]) then return -used - 1 end
used = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('EXPIREAT', KEYS[1], ARGV[3])
return used`);

export class QuotaService {
  constructor(private readonly redis: Redis) {}

  /**
   * Adds `amount` to this month's count if it stays within the quota; otherwise counts nothing
   * and throws 429 quota_exceeded.
   */
  async consume(keyId: string, quota: KeyQuota, amount: number, now = new Date()): Promise<QuotaStanding> {
    const { key, expireAt } = quotaCounter(keyId, now);
    const used = (await CONSUME_QUOTA.run(this.redis, [key], [String(amount), String(quota.limit), String(expireAt)])) as number;
    if (used < 0) throw exceeded(standingOf(quota, -used - 1, now), now);
    return standingOf(quota, used, now);
  }

  async standing(keyId: string, quota: KeyQuota, now = new Date()): Promise<QuotaStanding> {
    const used = Number((await this.redis.get(counterKey(keyId, now))) ?? 0);
    return standingOf(quota, used, now);
  }
}
