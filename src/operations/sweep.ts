// operations.sweep, every CUTROOM_OPERATION_SWEEP_MS (20 s): the self-healing half of operations.
// - A running operation whose lease ran out belongs to a worker that died (crash, deploy, OOM,
//   kill -9) or stalled: it is queued again while it has attempts left, otherwise failed with
//   worker_lost and its hold released. With the default 60 s lease, a dead worker's operation is
//   retaken or failed within about 80 s.
// - A queued operation nobody touched for CUTROOM_OPERATION_REQUEUE_AFTER_MS has its job queued
//   again: its job was lost (enqueueing failed after the creating transaction committed, or Redis
//   lost its data). The job id is the operation and attempt, so a job still waiting is not doubled.
import { z } from "zod";
import { defineJob, type JobDefinition } from "../jobs/job.js";
import { logger } from "../logger.js";
import { OperationFailure } from "./kind.js";
import { failOperation, retakeOperation } from "./store.js";
import { enqueueOperation, type OperationJobDependencies } from "./worker.js";
import { fileServiceFor } from "../storage/from-config.js";

/** Rows looked at per pass; the next pass takes the rest. */
const BATCH = 200;

const sweepPayload = z.strictObject({ request_id: z.string().optional() });

export const sweepOperationsJob: JobDefinition<typeof sweepPayload, OperationJobDependencies> = defineJob<typeof sweepPayload, OperationJobDependencies>({
  name: "operations.sweep",
  payload: sweepPayload,
  every: { milliseconds: (config) => config.operationSweepMs, payload: {} },
  attempts: 1,
  async handler(_payload, { prisma, config, outbound, providers, enqueue, operationKinds: known }) {
    const now = new Date();
    const expired = await prisma.operation.findMany({
      where: { status: "running", lease_expires_at: { lt: now } },
      select: { operation_id: true, kind: true, attempts: true, max_attempts: true },
      take: BATCH,
    });
    let retaken = 0;
    let failed = 0;
    for (const operation of expired) {
      const kind = known.get(operation.kind);
      if (!kind) continue;
      if (operation.attempts < operation.max_attempts) {
        const row = await retakeOperation(prisma, operation.operation_id, kind, now);
        if (row) {
          retaken++;
          await enqueueOperation(enqueue, kind, row);
        }
      } else {
        const failure = new OperationFailure("worker_lost", `The worker running this ${operation.kind.replace(/_/g, " ")} stopped before it finished, ${operation.attempts} times.`);
        const services = { prisma, config, outbound, providers, files: await fileServiceFor(prisma, config) };
        if (await failOperation(services, operation.operation_id, kind, failure, { leaseExpiredBefore: now })) failed++;
      }
    }
    const lost = await prisma.operation.findMany({
      where: { status: "queued", updated_at: { lt: new Date(now.getTime() - config.operationRequeueAfterMs) } },
      select: { operation_id: true, kind: true, attempts: true, request_id: true },
      orderBy: { updated_at: "asc" },
      take: BATCH,
    });
    for (const operation of lost) {
      const kind = known.get(operation.kind);
      if (kind) await enqueueOperation(enqueue, kind, operation);
    }
    if (retaken || failed) logger.info({ retaken, failed, requeued: lost.length }, "operations swept");
    return { retaken, failed, requeued: lost.length };
  },
});
