// BullMQ queues (one per job) and the workers that run them. Any process can enqueue; a process
// runs workers only when asked to (npm run worker, or npm start in development).
import { Queue, Worker, type ConnectionOptions } from "bullmq";
import { logger } from "../logger.js";
import { currentRequestContext } from "../context/request-context.js";
import type { JobDefinition, JobDependencies } from "./job.js";
import { JOBS, OPERATION_KINDS_BY_NAME } from "./registry.js";
import { reapOrphans } from "../operations/orphans.js";
import type { z } from "zod";
import { Dispatcher } from "../webhooks/dispatcher.js";
import type { LiveEvent } from "../outbox/live.js";

function connectionFor(redisUrl: string): ConnectionOptions {
  // BullMQ workers block on Redis; they need their own connections and no retry cap.
  return { url: redisUrl, maxRetriesPerRequest: null };
}

export class JobQueues {
  private readonly queues = new Map<string, Queue>();

  constructor(readonly redisUrl: string) {}

  queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: connectionFor(this.redisUrl) });
      // A queue reconnects on its own; without a listener each failed attempt is an unhandled error event.
      queue.on("error", (error) => logger.warn({ err: error, queue: name }, "job queue redis error"));
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** Enqueues a job after validating its payload; the request id travels with it. */
  async enqueue<P extends z.ZodType>(job: JobDefinition<P>, payload: z.input<P>, options: { jobId?: string; delay?: number } = {}) {
    const data = job.payload.parse({ request_id: currentRequestContext()?.requestId, ...(payload as object) });
    return this.queue(job.name).add(job.name, data, {
      jobId: options.jobId,
      delay: options.delay,
      attempts: job.attempts ?? 1,
      backoff: { type: "exponential", delay: 1000 },
      removeOnComplete: job.forgetWhenDone ? true : { age: 86_400, count: 1000 },
      removeOnFail: job.forgetWhenDone ? true : { age: 7 * 86_400 },
    });
  }

  /** Enqueues a job in place of a waiting or delayed one with the same id (e.g. a resend now). */
  async replace<P extends z.ZodType>(job: JobDefinition<P>, payload: z.input<P>, jobId: string) {
    const existing = await this.queue(job.name).getJob(jobId);
    if (existing && ((await existing.isDelayed()) || (await existing.isWaiting()))) await existing.remove();
    return this.enqueue(job, payload, { jobId });
  }

  /** Drops a queue's connection; the next use opens a new one (after a broken connection). */
  async forget(name: string): Promise<void> {
    const queue = this.queues.get(name);
    this.queues.delete(name);
    await queue?.close();
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
  }
}

export interface RunningWorkers {
  close(): Promise<void>;
}

/** Creates (or updates) the schedule of every repeating job; idempotent. */
async function ensureSchedules(queues: JobQueues, config: JobDependencies["config"]): Promise<void> {
  for (const job of JOBS.filter((candidate) => candidate.every)) {
    const every = job.every!;
    const milliseconds = typeof every.milliseconds === "function" ? every.milliseconds(config) : every.milliseconds;
    await queues.queue(job.name).upsertJobScheduler(`${job.name}:schedule`, { every: milliseconds }, { name: job.name, data: every.payload });
  }
}

/** Starts a worker per job, the schedules of repeating jobs, and the webhook dispatcher. */
export async function startWorkers(
  queues: JobQueues,
  base: Omit<JobDependencies, "enqueue" | "operationKinds">,
  publish?: (workspaceId: string, event: LiveEvent) => void,
): Promise<RunningWorkers> {
  const dependencies: JobDependencies = {
    ...base,
    operationKinds: OPERATION_KINDS_BY_NAME,
    enqueue: (job, payload, options) => queues.enqueue(job, payload, options),
  };
  // A worker that died here before may have left children and work directories.
  await reapOrphans(base.prisma);
  // One queue per job, so a worker only ever runs the job it was built for.
  const workers = JOBS.map((job) => {
    const limiter = job.limiter?.(base.config);
    return new Worker<Record<string, unknown>>(job.name, async (bullJob) => job.handler(job.payload.parse(bullJob.data), dependencies), {
      connection: connectionFor(queues.redisUrl),
      concurrency: job.concurrency?.(base.config) ?? 4,
      ...(limiter && { limiter: { max: limiter.max, duration: limiter.durationMs } }),
    });
  });
  for (const worker of workers) {
    worker.on("failed", (job, error) => logger.warn({ job: job?.name, job_id: job?.id, request_id: job?.data?.request_id, err: error }, "job failed"));
    worker.on("error", (error) => logger.warn({ err: error }, "worker error"));
  }
  await ensureSchedules(queues, base.config);
  // Redis may lose its data (a flush, a failover without persistence): schedules are re-created.
  const scheduleCheck = setInterval(() => {
    ensureSchedules(queues, base.config).catch((error: unknown) => logger.warn({ err: error }, "job schedules not checked"));
  }, base.config.jobScheduleCheckMs);
  const dispatcher = new Dispatcher({ prisma: base.prisma, intervalMs: base.config.dispatchIntervalMs, enqueue: dependencies.enqueue, publish });
  dispatcher.start();
  return {
    async close() {
      clearInterval(scheduleCheck);
      await dispatcher.stop();
      await Promise.all(workers.map((worker) => worker.close()));
    },
  };
}
