// Starts this process's workers: a worker per job (src/platform/jobs.ts) with what the handlers
// need, the webhook dispatcher that moves the outbox to deliveries and live subscribers, and first
// the clean-up of what a worker that died here before left behind.
import type { JobQueues, RunningWorkers } from "../jobs/queues.js";
import { runJobs } from "../jobs/queues.js";
import type { JobDependencies } from "../jobs/job.js";
import { reapOrphans } from "../operations/orphans.js";
import type { LiveEvent } from "../outbox/live.js";
import { Dispatcher } from "../webhooks/dispatcher.js";
import { JOBS, OPERATION_KINDS_BY_NAME } from "./jobs.js";

export async function startWorkers(
  queues: JobQueues,
  base: Omit<JobDependencies, "enqueue">,
  publish?: (workspaceId: string, event: LiveEvent) => void,
): Promise<RunningWorkers> {
  const enqueue: JobDependencies["enqueue"] = (job, payload, options) => queues.enqueue(job, payload, options);
  // A worker that died here before may have left children and work directories.
  await reapOrphans(base.prisma);
  const jobs = await runJobs(queues, JOBS, { ...base, operationKinds: OPERATION_KINDS_BY_NAME, enqueue });
  const dispatcher = new Dispatcher({ prisma: base.prisma, intervalMs: base.config.dispatchIntervalMs, enqueue, publish });
  dispatcher.start();
  return {
    async close() {
      await dispatcher.stop();
      await jobs.close();
    },
  };
}
