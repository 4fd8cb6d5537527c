// Runs one attempt of an operation in a worker: claim it under a lease, keep the lease alive with
// a heartbeat while the work runs, write progress, then complete or fail it — each move through
// src/operations/store.ts. A worker that loses its lease (it stalled past the lease, the sweep
// retook the operation) aborts its work and discards whatever it produced.
import os from "node:os";
import path from "node:path";
import { mkdtemp, rm } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { defineJob, type JobDefinition, type JobDependencies } from "../jobs/job.js";
import { ApiError } from "../errors/api-error.js";
import { logger } from "../logger.js";
import { runInRequestContext } from "../context/request-context.js";
import { fileServiceFor, serviceBaseUrl } from "../storage/from-config.js";
import { OperationFailure, type OperationKind, type OperationRow, type OperationRunContext } from "./kind.js";
import { recordingUsage } from "../providers/recording.js";
import type { CallMeta } from "../providers/types.js";
import { claimOperation, completeOperation, failOperation, renewLease, saveCheckpoint, saveProgress, saveSpent } from "./store.js";

/** How often, at most, progress is written while the work runs. */
const PROGRESS_INTERVAL_MS = 500;

/** Prefix of an attempt's working directory (also how orphans of a dead worker are recognised). */
export const WORK_DIR_PREFIX = "cutroom-op-";

/**
 * An attempt's working directory: `cutroom-op-<operation id>-w<pid>-<random>`. The pid names the
 * process that uses it, so a worker starting on this machine knows whether its user is alive
 * (./orphans.ts).
 */
function workDirPrefix(operationId: string): string {
  return path.join(os.tmpdir(), `${WORK_DIR_PREFIX}${operationId}-w${process.pid}-`);
}

const workDirsInUse = new Set<string>();

/** Is this process using the directory (an attempt of it is running there)? */
export function usesWorkDir(directory: string): boolean {
  return workDirsInUse.has(directory);
}

/** What an operation's job needs beyond every job's dependencies: the kinds this process runs. */
export interface OperationJobDependencies extends JobDependencies {
  /** The operation kinds this process runs, by kind (src/platform/operation-kinds.generated.ts). */
  operationKinds: ReadonlyMap<string, OperationKind<unknown>>;
}

export type OperationKinds = OperationJobDependencies["operationKinds"];

/** This process's identity as a lease holder. */
export const WORKER_ID = `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

const operationPayload = z.strictObject({ operation_id: z.string().min(1), request_id: z.string().optional() });

const jobsByQueue = new Map<string, JobDefinition<typeof operationPayload, OperationJobDependencies>>();

/** The job of an operation queue (`operations.render`, `operations.music`, ...). */
export function operationJob(queue: string): JobDefinition<typeof operationPayload, OperationJobDependencies> {
  let job = jobsByQueue.get(queue);
  if (!job) {
    job = defineJob<typeof operationPayload, OperationJobDependencies>({
      name: `operations.${queue}`,
      payload: operationPayload,
      // A lost attempt is retaken by the sweep under a new job id, never by a BullMQ retry.
      attempts: 1,
      forgetWhenDone: true,
      concurrency: (config) => config.queueConcurrency[queue] ?? 4,
      limiter: (config) => config.queueLimits[queue],
      handler: ({ operation_id }, dependencies) => runOperation(operation_id, dependencies),
    });
    jobsByQueue.set(queue, job);
  }
  return job;
}

/** The job id of an attempt: one job per operation and attempt, so queueing twice queues once. */
function jobIdOf(operation: Pick<OperationRow, "operation_id" | "attempts">): string {
  return `${operation.operation_id}-a${operation.attempts + 1}`;
}

/** Queues the next attempt of a queued operation. */
export function enqueueOperation(
  enqueue: JobDependencies["enqueue"],
  kind: OperationKind<unknown>,
  operation: Pick<OperationRow, "operation_id" | "attempts" | "request_id">,
): Promise<unknown> {
  const payload = { operation_id: operation.operation_id, ...(operation.request_id && { request_id: operation.request_id }) };
  return enqueue(operationJob(kind.queue), payload, { jobId: jobIdOf(operation) });
}

class LeaseLost extends Error {
  constructor() {
    super("The operation's lease was lost.");
  }
}

/** The failure an error of the work becomes: a stable code and a message safe to show. */
function asFailure(error: unknown, operationId: string): OperationFailure {
  if (error instanceof OperationFailure) return error;
  if (error instanceof ApiError) return new OperationFailure(error.code, error.message);
  logger.error({ err: error, operation_id: operationId }, "operation failed unexpectedly");
  return new OperationFailure("internal_error", "The operation failed unexpectedly; it has been logged.");
}

export async function runOperation(operationId: string, dependencies: OperationJobDependencies): Promise<unknown> {
  const { prisma, config, operationKinds: kinds } = dependencies;
  const stored = await prisma.operation.findUnique({ where: { operation_id: operationId }, select: { kind: true, status: true, request_id: true } });
  if (!stored || stored.status !== "queued") return { operation_id: operationId, skipped: stored ? `not queued (${stored.status})` : "unknown" };
  const kind = kinds.get(stored.kind);
  if (!kind) {
    // Another version of the service queued it: leave it for a worker that knows the kind.
    logger.error({ operation_id: operationId, kind: stored.kind }, "no worker for this operation kind");
    return { operation_id: operationId, skipped: `unknown kind ${stored.kind}` };
  }
  const run = () => attempt(operationId, kind, dependencies);
  // Events and ledger rows the work writes carry the request that queued it.
  return stored.request_id ? runInRequestContext({ requestId: stored.request_id, baseUrl: serviceBaseUrl(config) }, run) : run();
}

async function attempt(operationId: string, kind: OperationKind<unknown>, dependencies: JobDependencies): Promise<unknown> {
  const { prisma, config, outbound, providers } = dependencies;
  const leaseMs = config.operationLeaseMs;
  const operation = await claimOperation(prisma, operationId, kind, WORKER_ID, leaseMs);
  if (!operation) return { operation_id: operationId, skipped: "not queued" };

  const controller = new AbortController();
  let leaseLost = false;
  const loseLease = () => {
    if (leaseLost) return;
    leaseLost = true;
    controller.abort(new LeaseLost());
  };
  const heartbeat = setInterval(() => {
    renewLease(prisma, operationId, WORKER_ID, leaseMs).then(
      (held) => held || loseLease(),
      (error: unknown) => logger.warn({ err: error, operation_id: operationId }, "lease not renewed"),
    );
  }, Math.max(250, Math.floor(leaseMs / 4)));

  const progress = new ProgressWriter(async (percent) => {
    if (!(await saveProgress(prisma, operationId, WORKER_ID, percent))) return loseLease();
    await kind.onProgress?.(prisma, operation, percent);
  });
  let workDir: string | undefined;
  const usage: CallMeta[] = [];
  const checkLease = (held: boolean) => {
    if (!held) {
      loseLease();
      throw new LeaseLost();
    }
  };
  try {
    const files = await fileServiceFor(prisma, config);
    const context: OperationRunContext = {
      prisma,
      config,
      outbound,
      files,
      providers: recordingUsage(providers, usage),
      operation,
      signal: controller.signal,
      progress: (percent) => progress.report(percent),
      checkpoint: async (data) => checkLease(await saveCheckpoint(prisma, operationId, WORKER_ID, data)),
      spent: async (credits) => checkLease(await saveSpent(prisma, operationId, WORKER_ID, Math.min(credits, operation.credits_held))),
      workDir: async () => {
        if (!workDir) {
          workDir = await mkdtemp(workDirPrefix(operationId));
          workDirsInUse.add(workDir);
        }
        return workDir;
      },
      registry: providers,
      enqueue: dependencies.enqueue,
      quotas: dependencies.quotas,
    };
    const outcome = await kind.run(context, kind.input.parse(operation.input));
    await progress.settle();
    if (leaseLost) return { operation_id: operationId, skipped: "lease lost" };
    const completed = await completeOperation(prisma, operation, kind, WORKER_ID, outcome, { prisma, config, outbound, files, providers }, usage);
    return completed ? { operation_id: operationId, status: "completed" } : { operation_id: operationId, skipped: "lease lost" };
  } catch (error) {
    await progress.settle();
    if (leaseLost) return { operation_id: operationId, skipped: "lease lost" };
    const failure = asFailure(error, operationId);
    await failOperation({ prisma, config, outbound, providers, files: await fileServiceFor(prisma, config) }, operationId, kind, failure, { workerId: WORKER_ID, usage });
    logger.info({ operation_id: operationId, kind: kind.kind, error_code: failure.code, error_message: failure.message }, "operation failed");
    return { operation_id: operationId, status: "failed", error_code: failure.code };
  } finally {
    clearInterval(heartbeat);
    if (workDir) {
      await rm(workDir, { recursive: true, force: true });
      workDirsInUse.delete(workDir);
    }
  }
}

/** Writes progress at most every PROGRESS_INTERVAL_MS, in order, never backwards. */
class ProgressWriter {
  private written = 0;
  private writtenAt = 0;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly write: (percent: number) => Promise<void>) {}

  report(percent: number): void {
    const value = Math.max(0, Math.min(99, Math.floor(percent)));
    const now = Date.now();
    if (value <= this.written || now - this.writtenAt < PROGRESS_INTERVAL_MS) return;
    this.written = value;
    this.writtenAt = now;
    this.chain = this.chain.then(
      () => this.write(value),
      () => undefined,
    ).catch((error: unknown) => logger.warn({ err: error }, "operation progress not written"));
  }

  /** Waits for the writes under way, so none lands after the final state. */
  settle(): Promise<void> {
    return this.chain;
  }
}
