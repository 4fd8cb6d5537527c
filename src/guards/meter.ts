// One request's account with the guards: the rate windows it consumed (for the X-RateLimit-*
// headers) and its quota standing. Handlers that weigh more than one unit (exports, bulk) or
// spend credits charge the difference through it before doing the work.
import { ApiError } from "../errors/api-error.js";
import type { RequestMeter as Meter } from "../context/request-context.js";
import type { RateLimits, RateWindow } from "../config.js";
import { keyPolicy, rateLimitHeaders, tightestOf, type RateLimitService, type WindowStanding } from "./rate-limit.js";
import { quotaHeaders, type KeyQuota, type QuotaService, type QuotaStanding } from "./quota.js";

export class RequestMeter implements Meter {
  private readonly standings = new Map<string, WindowStanding>();
  private quota: QuotaStanding | undefined;

  constructor(
    private readonly services: { rateLimits: RateLimitService; quotas: QuotaService; windowSeconds: Record<RateWindow, number> },
    private readonly keyId: string,
    private readonly limits: RateLimits,
    private readonly keyQuota: KeyQuota | undefined,
  ) {}

  private remember(standings: WindowStanding[]): void {
    for (const standing of standings) this.standings.set(standing.window, standing);
  }

  /** Counts `points` request units; throws 429 when a window or a request quota is spent. */
  async charge(points: number, options: { spendsCredits?: boolean } = {}): Promise<void> {
    if (points <= 0 && !options.spendsCredits) return;
    // The request quota first (durable, in PostgreSQL), then the windows in one Redis round trip;
    // a refusal by either counts nothing in the other.
    const quota = this.keyQuota?.unit === "requests" && points > 0 ? this.keyQuota : undefined;
    if (quota) {
      try {
        this.quota = await this.services.quotas.consume(this.keyId, quota, points);
      } catch (error) {
        throw await this.withWindowHeaders(error);
      }
    }
    try {
      this.remember((await this.services.rateLimits.consumeAll(this.keyId, this.limits, points, { spendsCredits: options.spendsCredits })).standings);
    } catch (error) {
      if (quota) this.quota = await this.services.quotas.release(this.keyId, points).then(() => this.services.quotas.standing(this.keyId, quota));
      throw error;
    }
  }

  /** A quota refusal reports the rate windows too, as they stand (it counted in none of them). */
  private async withWindowHeaders(error: unknown): Promise<unknown> {
    if (!(error instanceof ApiError) || error.code !== "quota_exceeded") return error;
    const standings = (await this.services.rateLimits.standings(this.keyId, this.limits).catch(() => [])).filter((standing) => standing.window !== "credits_day");
    this.remember(standings);
    const headers = { ...rateLimitHeaders(standings, keyPolicy(this.limits, this.services.windowSeconds)), ...error.headers };
    return new ApiError(error.code, error.message, { details: error.details, headers });
  }

  /** Counts credits against a credits quota (called when credits are about to be spent). */
  async chargeCredits(amount: number): Promise<void> {
    if (this.keyQuota?.unit === "credits" && amount > 0) this.quota = await this.services.quotas.consume(this.keyId, this.keyQuota, amount);
  }

  /** Shows the quota standing even on requests that did not count against it. */
  async loadQuota(): Promise<void> {
    if (this.keyQuota && !this.quota) this.quota = await this.services.quotas.standing(this.keyId, this.keyQuota);
  }

  /** The tightest window this request counted against (least remaining, then the shortest): what its headers report. */
  tightestWindow(): WindowStanding | undefined {
    return tightestOf([...this.standings.values()]);
  }

  headers(): Record<string, string> {
    return {
      ...rateLimitHeaders([...this.standings.values()], keyPolicy(this.limits, this.services.windowSeconds)),
      ...quotaHeaders(this.quota),
    };
  }
}
