// One request's account with the guards: the rate windows it consumed (for the X-RateLimit-*
// headers) and its quota standing. Handlers that weigh more than one unit (exports, bulk) or
// spend credits charge the difference through it before doing the work.
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
    const quota = this.keyQuota?.unit === "requests" ? { service: this.services.quotas, limits: this.keyQuota, points } : undefined;
    // One round trip for every window and the request quota; a refusal counts nothing.
    const result = await this.services.rateLimits.consumeAll(this.keyId, this.limits, points, { spendsCredits: options.spendsCredits, quota });
    this.remember(result.standings);
    if (result.quota) this.quota = result.quota;
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
