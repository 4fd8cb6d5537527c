// The guards every request passes, built once per service.
import type { Redis } from "ioredis";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Config, RateLimits } from "../config.js";
import type { AuthContext } from "../context/auth-context.js";
import { effectiveLimits, RateLimitService, type WindowStanding } from "./rate-limit.js";
import { QuotaService, type QuotaStanding } from "./quota.js";
import { IdempotencyService } from "./idempotency.js";
import { RequestLogWriter } from "./request-log-writer.js";
import { KeyCache } from "../auth/key-cache.js";
import type { Keyring } from "../config/keyring.js";

export interface Guards {
  rateLimits: RateLimitService;
  quotas: QuotaService;
  idempotency: IdempotencyService;
  requestLog: RequestLogWriter;
  /** Authenticated keys, per process; invalidated through Redis on every key change. */
  keyCache: KeyCache;
  config: Pick<Config, "rateLimits" | "rateWindowSeconds" | "anonymousPerMinute" | "idempotencyLockMs">;
}

export function createGuards(redis: Redis, prisma: PrismaClient, config: Guards["config"], keyring?: Keyring): Guards {
  return {
    rateLimits: new RateLimitService({ redis, windowSeconds: config.rateWindowSeconds, anonymousPerMinute: config.anonymousPerMinute }),
    quotas: new QuotaService(prisma),
    idempotency: new IdempotencyService(redis, prisma, { lockMs: config.idempotencyLockMs, keyring }),
    requestLog: new RequestLogWriter(prisma),
    keyCache: new KeyCache(redis),
    config,
  };
}

/** The key's effective rate windows: its overrides over the configured defaults. */
export function keyLimits(guards: Guards, auth: AuthContext): RateLimits {
  return effectiveLimits(guards.config.rateLimits, auth.rateLimitOverrides);
}

export interface KeyStanding {
  rate_limits: WindowStanding[];
  quota: QuotaStanding | null;
}

/** Where the key stands in every rate window and its quota, counting nothing (account.limits, /usage). */
export async function keyStanding(guards: Guards, auth: AuthContext, now = new Date()): Promise<KeyStanding> {
  const [rateLimits, quota] = await Promise.all([
    guards.rateLimits.standings(auth.keyId, keyLimits(guards, auth)),
    auth.quota ? guards.quotas.standing(auth.keyId, auth.quota, now) : null,
  ]);
  return { rate_limits: rateLimits, quota };
}
