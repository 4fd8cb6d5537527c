// A job is declared with a name, a validated payload and a handler in its domain folder; the
// payload is checked when enqueued and again when run, and carries the request id it came from.
import type { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Config } from "../config.js";
import type { OutboundGuard } from "../outbound/url-guard.js";
import type { ProviderRegistry } from "../providers/registry.js";
import type { QuotaService } from "../guards/quota.js";
import type { Keyring } from "../config/keyring.js";

export interface JobDependencies {
  prisma: PrismaClient;
  config: Config;
  outbound: OutboundGuard;
  /** Models and local tools, by capability. */
  providers: ProviderRegistry;
  /**
   * Keys' monthly quotas, on the Redis counters the API counts them with: a flow's node calls
   * spend credits on the launching key's credits quota as its requests would (src/flows).
   */
  quotas: QuotaService;
  /** The server keyring: opens what is sealed at rest (webhook signing secrets, src/config/keyring.ts). */
  keyring: Keyring;
  /** Enqueues follow-up jobs (e.g. the next delivery attempt). */
  enqueue(this: void, job: JobDefinition<z.ZodType, never>, payload: Record<string, unknown>, options?: { jobId?: string; delay?: number }): Promise<unknown>;
}

/**
 * A job. `D` is what its handler needs from the process: the common dependencies, or more (the
 * operation jobs also need the operation kinds); the composition root hands every job one object
 * that has it all (src/platform/workers.ts).
 */
export interface JobDefinition<P extends z.ZodType = z.ZodType, D extends JobDependencies = JobDependencies> {
  /** Queue and job name, e.g. maintenance.prune. */
  name: string;
  payload: P;
  handler(payload: z.output<P>, dependencies: D): Promise<unknown>;
  /** Runs on a schedule as well as on demand. */
  every?: { milliseconds: number | ((config: Config) => number); payload: z.input<P> };
  /** Attempts before a job is given up (with exponential backoff). */
  attempts?: number;
  /**
   * Drop finished jobs at once. For jobs whose id is a de-duplication key that must become free
   * again once the job ran (a delivery attempt that was skipped, a resend).
   */
  forgetWhenDone?: boolean;
  /** Jobs of this queue run at once in one worker process (default 4). */
  concurrency?(config: Config): number;
  /** At most `max` jobs started per `durationMs` across the workers of this queue. */
  limiter?(config: Config): { max: number; durationMs: number } | undefined;
}

export function defineJob<P extends z.ZodType, D extends JobDependencies = JobDependencies>(definition: JobDefinition<P, D>): JobDefinition<P, D> {
  return definition;
}
