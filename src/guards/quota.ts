// Monthly quotas (contract 8): a key may carry a ceiling on requests or on credits per calendar
// month (UTC). Counted in PostgreSQL (key_quota_usage, a row per key and month, so a new month
// starts from zero): a quota is money, and Redis may lose its data (docs/guards.md).
import type { KeyQuota } from "../context/auth-context.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import { ApiError } from "../errors/api-error.js";


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

/** The month a count belongs to, e.g. 2026-11 (UTC). */
export function periodOf(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
}

export class QuotaService {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Adds `amount` to this month's count if it stays within the quota; otherwise counts nothing
   * and throws 429 quota_exceeded. One statement, so concurrent calls never pass the ceiling.
   */
  async consume(keyId: string, quota: KeyQuota, amount: number, now = new Date()): Promise<QuotaStanding> {
    const period = periodOf(now);
    const counted = await this.prisma.$queryRaw<{ used: number }[]>`
      INSERT INTO "key_quota_usage" ("key_id", "period", "used")
      SELECT ${keyId}, ${period}, ${amount}::int WHERE ${amount}::int <= ${quota.limit}::int
      ON CONFLICT ("key_id", "period") DO UPDATE SET "used" = "key_quota_usage"."used" + EXCLUDED."used", "updated_at" = CURRENT_TIMESTAMP
        WHERE "key_quota_usage"."used" + EXCLUDED."used" <= ${quota.limit}::int
      RETURNING "used"`;
    if (counted.length === 0) throw exceeded(standingOf(quota, await this.used(keyId, period), now), now);
    return standingOf(quota, counted[0]!.used, now);
  }

  /** Gives back what a request counted but did not use (it was refused by a rate window). */
  async release(keyId: string, amount: number, now = new Date()): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE "key_quota_usage" SET "used" = GREATEST(0, "used" - ${amount}::int), "updated_at" = CURRENT_TIMESTAMP
      WHERE "key_id" = ${keyId} AND "period" = ${periodOf(now)}`;
  }

  async standing(keyId: string, quota: KeyQuota, now = new Date()): Promise<QuotaStanding> {
    return standingOf(quota, await this.used(keyId, periodOf(now)), now);
  }

  private async used(keyId: string, period: string): Promise<number> {
    const row = await this.prisma.keyQuotaUsage.findUnique({ where: { key_id_period: { key_id: keyId, period } }, select: { used: true } });
    return row?.used ?? 0;
  }
}
