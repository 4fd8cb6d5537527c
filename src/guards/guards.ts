// The guards every request passes, built once per service.
import type { Redis } from "ioredis";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Config } from "../config.js";
import { RateLimitService } from "./rate-limit.js";
import { QuotaService } from "./quota.js";
import { IdempotencyService } from "./idempotency.js";
import { RequestLogWriter } from "../logs/request-log-writer.js";

export interface Guards {
  rateLimits: RateLimitService;
  quotas: QuotaService;
  idempotency: IdempotencyService;
  requestLog: RequestLogWriter;
  config: Pick<Config, "rateLimits" | "rateWindowSeconds" | "anonymousPerMinute">;
}

export function createGuards(redis: Redis, prisma: PrismaClient, config: Guards["config"]): Guards {
  return {
    rateLimits: new RateLimitService({ redis, windowSeconds: config.rateWindowSeconds, anonymousPerMinute: config.anonymousPerMinute }),
    quotas: new QuotaService(redis),
    idempotency: new IdempotencyService(redis),
    requestLog: new RequestLogWriter(prisma),
    config,
  };
}
