// Every job the workers run, and every operation kind (the composition root of the workers: the
// only place that names the domains' jobs). Adding a job or an operation kind is adding it here.
import type { JobDefinition } from "./job.js";
import type { OperationKind } from "../operations/kind.js";
import { operationJob } from "../operations/worker.js";
import { sweepOperationsJob } from "../operations/sweep.js";
import { pruneJob } from "../maintenance/prune-job.js";
import { deliverJob } from "../webhooks/deliver-job.js";
import { renderOperation } from "../renders/render-operation.js";
import { imageGenerationOperation } from "../images/image-generation.js";
import { musicOperation } from "../music/music-operation.js";
import { filmOperation } from "../scripts/film/film-operation.js";
import { imageMediaOperation, videoMediaOperation } from "../generations/media-generation.js";
import { facelessAudioOperation, facelessVisualOperation } from "../faceless/operations.js";
import { facelessPipelineOperation } from "../faceless/pipeline-operation.js";
import { slideshowExportOperation, slideshowVisualsOperation } from "../slideshows/operations.js";
import { flowOperation } from "../flows/flow-operation.js";
import { timelineAudioOperation } from "../timeline/audio-operation.js";
import { publishJob, publishSweepJob } from "../publishing/publisher.js";

/** A kind's input type matters only inside the kind; the workers handle them alike. */
const anyKind = <Input>(kind: OperationKind<Input>) => kind as unknown as OperationKind<unknown>;

export const OPERATION_KINDS: readonly OperationKind<unknown>[] = [anyKind(renderOperation), anyKind(imageGenerationOperation), anyKind(musicOperation), anyKind(filmOperation), anyKind(imageMediaOperation), anyKind(videoMediaOperation),
  anyKind(facelessAudioOperation), anyKind(facelessVisualOperation), anyKind(facelessPipelineOperation), anyKind(slideshowVisualsOperation), anyKind(slideshowExportOperation),
  anyKind(flowOperation), anyKind(timelineAudioOperation)];

export const OPERATION_KINDS_BY_NAME: ReadonlyMap<string, OperationKind<unknown>> = new Map(OPERATION_KINDS.map((kind) => [kind.kind, kind]));

/** One queue per capability the kinds name. */
const OPERATION_QUEUES = [...new Set(OPERATION_KINDS.map((kind) => kind.queue))];

export const JOBS: readonly JobDefinition[] = [pruneJob, deliverJob, sweepOperationsJob, publishJob, publishSweepJob, ...OPERATION_QUEUES.map((queue) => operationJob(queue))];
