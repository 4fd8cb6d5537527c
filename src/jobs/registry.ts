// Every job the workers run. Adding one is adding its definition here.
import type { JobDefinition } from "./job.js";
import { pruneJob } from "../maintenance/prune-job.js";
import { deliverJob } from "../webhooks/deliver-job.js";
import { renderJob } from "../renders/render-job.js";
import { sweepJob } from "../renders/sweep-job.js";

export const JOBS: readonly JobDefinition[] = [pruneJob, deliverJob, renderJob, sweepJob];
