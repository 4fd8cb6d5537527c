// Every job the workers run, and every operation kind: the one place that names the domains'
// jobs. Operation kinds come from the generated list; the other jobs are named here.
import type { z } from "zod";
import type { JobDefinition } from "../jobs/job.js";
import type { OperationKind } from "../operations/kind.js";
import { operationJob, type OperationJobDependencies } from "../operations/worker.js";
import { sweepOperationsJob } from "../operations/sweep.js";
import { pruneJob } from "../maintenance/prune-job.js";
import { deliverJob } from "../webhooks/deliver-job.js";
import { publishJob, publishSweepJob } from "../publishing/publisher.js";
import { OPERATION_KIND_LIST } from "./operation-kinds.generated.js";

export const OPERATION_KINDS: readonly OperationKind<unknown>[] = OPERATION_KIND_LIST;

export const OPERATION_KINDS_BY_NAME: ReadonlyMap<string, OperationKind<unknown>> = new Map(OPERATION_KINDS.map((kind) => [kind.kind, kind]));

/** One queue per capability the kinds name. */
const OPERATION_QUEUES = [...new Set(OPERATION_KINDS.map((kind) => kind.queue))];

export const JOBS: readonly JobDefinition<z.ZodType, OperationJobDependencies>[] = [
  pruneJob, deliverJob, sweepOperationsJob, publishJob, publishSweepJob, ...OPERATION_QUEUES.map((queue) => operationJob(queue)),
];
