// renders.render: turns a queued render into an MP4 (docs/renders.md).
//
//   queued ──claim──► rendering ──► completed   (output stored, output_url signed)
//                         └───────► failed      (error_code, error_message; credits refunded)
//
// Each move is one transaction with its event in the outbox: render.started with the claim,
// render.completed with the finished record, render.failed with the failure and the refund of the
// credits the render consumed. Only a queued render is claimed, so a duplicate job is a no-op; the
// work directory is removed whatever happens.
import os from "node:os";
import path from "node:path";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { z } from "zod";
import { defineJob, type JobDependencies } from "../jobs/job.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Tx } from "../db/transaction.js";
import { recordEvent } from "../outbox/record-event.js";
import { addCredits } from "../credits/ledger.js";
import { runInRequestContext } from "../context/request-context.js";
import { ApiError } from "../errors/api-error.js";
import { logger } from "../logger.js";
import { FONT_PATH } from "../media/binaries.js";
import { FfmpegError, runFfmpeg } from "../media/ffmpeg.js";
import { probeMedia } from "../media/probe.js";
import { fileServiceFor, serviceBaseUrl, type FileService } from "../storage/from-config.js";
import { FORMAT_SIZES, RENDER_FORMATS, isRenderFormat, parseComposition, type Composition } from "./composition.js";
import { buildRenderCommand } from "./render-command.js";
import { downloadMedia } from "./media.js";
import { MAX_ERROR_MESSAGE, RenderFailure } from "./render-failure.js";
import { presentRender, renderOutputKey } from "./present.js";

/** How often, at most, progress is written to the record while ffmpeg runs. */
const PROGRESS_INTERVAL_MS = 500;

export const renderJob = defineJob({
  name: "renders.render",
  payload: z.strictObject({ render_id: z.string().min(1), request_id: z.string().optional() }),
  // A failed render is final (its credits are refunded); a new render is a new renders.create.
  attempts: 1,
  // Only a queued render is claimed, so the id may be freed once the job ran: the sweep can then
  // queue a render whose job was lost (Redis flushed, enqueue failed after commit).
  forgetWhenDone: true,
  async handler({ render_id, request_id }, dependencies) {
    const run = () => runRender(render_id, dependencies);
    // Events and ledger rows of this render carry the id of the request that asked for it.
    return request_id ? runInRequestContext({ requestId: request_id, baseUrl: serviceBaseUrl(dependencies.config) }, run) : run();
  },
});

type Enqueue = JobDependencies["enqueue"];

/** Queues the render of a render record (in state queued); one job per render id. */
export function enqueueRender(target: Enqueue | { enqueue: Enqueue }, renderId: string): Promise<unknown> {
  const enqueue: Enqueue = typeof target === "function" ? target : (job, payload, options) => target.enqueue(job, payload, options);
  return enqueue(renderJob, { render_id: renderId }, { jobId: renderId });
}

type RenderOutcome =
  | { render_id: string; render_status: "completed"; output_key: string; duration_seconds: number }
  | { render_id: string; render_status: "failed"; error_code: string }
  | { render_id: string; skipped: string };

async function runRender(renderId: string, dependencies: JobDependencies): Promise<RenderOutcome> {
  const { prisma, config } = dependencies;
  const claimed = await claimRender(prisma, renderId);
  if (!claimed) return { render_id: renderId, skipped: "not queued" };
  const startedAt = performance.now();
  const workDir = await mkdtemp(path.join(os.tmpdir(), "cutroom-render-"));
  const progress = new ProgressWriter(prisma, renderId);
  let files: FileService | undefined;
  let storedKey: string | undefined;
  try {
    files = await fileServiceFor(prisma, config);
    const { composition, size } = renderInput(claimed);
    const media = await downloadMedia(dependencies.outbound, composition, workDir, { maxBytes: config.renderMediaMaxBytes, timeoutMs: config.renderMediaTimeoutMs });
    const outputPath = path.join(workDir, "output.mp4");
    const command = buildRenderCommand({ composition, size, media, workDir, fontFile: FONT_PATH, outputPath, preset: config.renderPreset });
    for (const file of command.files) await writeFile(file.path, file.content);
    await runFfmpeg(command.args, {
      cwd: workDir,
      timeoutMs: config.renderTimeoutMs,
      onProgress: (seconds) => progress.report(Math.min(99, Math.floor((seconds / composition.duration) * 100))),
    });
    await progress.settle();
    const output = await probeMedia(outputPath);
    if (!output.streams.some((stream) => stream.codec_type === "video") || !output.streams.some((stream) => stream.codec_type === "audio")) {
      throw new RenderFailure("ffmpeg_failed", "The output lacks a video or an audio stream.");
    }
    const durationSeconds = Math.round((output.duration ?? composition.duration) * 1000) / 1000;
    const key = renderOutputKey(claimed.workspace_id, renderId);
    const stored = await files.storage.put(key, outputPath, { contentType: "video/mp4" }).catch((error: unknown) => {
      logger.error({ err: error, render_id: renderId, key }, "render output could not be stored");
      throw new RenderFailure("storage_failed", "The output could not be stored.");
    });
    storedKey = key;
    const completed = await completeRender(prisma, renderId, {
      duration_seconds: durationSeconds,
      output_key: key,
      output_size_bytes: stored.size,
      output_url: files.signedUrl(key),
    });
    if (!completed) {
      // Deleted (or changed) while it rendered: nothing refers to the file any more.
      await files.storage.delete(key);
      return { render_id: renderId, skipped: "no longer rendering" };
    }
    logger.info({ render_id: renderId, duration_seconds: durationSeconds, size_bytes: stored.size, took_ms: Math.round(performance.now() - startedAt) }, "render completed");
    return { render_id: renderId, render_status: "completed", output_key: key, duration_seconds: durationSeconds };
  } catch (error) {
    await progress.settle();
    const failure = asRenderFailure(error, workDir, renderId);
    if (storedKey) await files?.storage.delete(storedKey).catch(() => undefined);
    await failRender(prisma, renderId, failure);
    logger.info({ render_id: renderId, error_code: failure.code, error_message: failure.message }, "render failed");
    return { render_id: renderId, render_status: "failed", error_code: failure.code };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

type ClaimedRender = NonNullable<Awaited<ReturnType<typeof claimRender>>>;

/** queued → rendering, with render.started; null when the render is not (or no longer) queued. */
function claimRender(prisma: PrismaClient, renderId: string) {
  return prisma.$transaction(async (tx) => {
    // The state is the condition of the update: no row back means it was not queued.
    const [row] = await tx.render.updateManyAndReturn({
      where: { render_id: renderId, render_status: "queued" },
      data: { render_status: "rendering", render_started_at: new Date(), progress: 0 },
      include: { video: { select: { composition: true, video_format: true } } },
    });
    if (!row) return null;
    await emit(tx, "render.started", row);
    return row;
  });
}

/** The parsed composition and the output size; RenderFailure invalid_composition otherwise. */
function renderInput(render: ClaimedRender): { composition: Composition; size: { width: number; height: number } } {
  if (!render.video) throw new RenderFailure("invalid_composition", "The render names no video.");
  const format = render.video_format ?? render.video.video_format;
  if (!isRenderFormat(format)) throw new RenderFailure("invalid_composition", `video_format '${format}' is not one of ${RENDER_FORMATS.join(", ")}.`);
  return { composition: parseComposition(render.video.composition), size: FORMAT_SIZES[format] };
}

interface Completion {
  duration_seconds: number;
  output_key: string;
  output_size_bytes: number;
  output_url: string;
}

/** rendering → completed, with render.completed; false when the render is no longer rendering. */
function completeRender(prisma: PrismaClient, renderId: string, completion: Completion): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const [row] = await tx.render.updateManyAndReturn({
      where: { render_id: renderId, render_status: "rendering" },
      data: { ...completion, render_status: "completed", progress: 100, render_completed_at: new Date(), error_code: null, error_message: null },
    });
    if (!row) return false;
    await emit(tx, "render.completed", row);
    return true;
  });
}

/**
 * rendering → failed, with render.failed and the refund of the credits it consumed; false when the
 * render is no longer rendering (or, with staleBefore, was touched since).
 */
export async function failRender(prisma: PrismaClient, renderId: string, failure: RenderFailure, staleBefore?: Date): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const [row] = await tx.render.updateManyAndReturn({
      where: { render_id: renderId, render_status: "rendering", ...(staleBefore && { render_updated_at: { lt: staleBefore } }) },
      data: { render_status: "failed", error_code: failure.code, error_message: failure.message.slice(0, MAX_ERROR_MESSAGE) },
    });
    if (!row) return false;
    if (row.credits_consumed > 0) {
      await addCredits(tx, {
        workspaceId: row.workspace_id,
        amount: row.credits_consumed,
        actionType: "refund",
        referenceId: renderId,
        description: `Refund of failed render ${renderId} (${failure.code})`,
        metadata: { render_id: renderId, error_code: failure.code },
      });
    }
    await emit(tx, "render.failed", row, { credits_refunded: row.credits_consumed });
    return true;
  });
}

function emit(tx: Tx, type: string, row: { workspace_id: string } & Record<string, unknown>, extra: Record<string, unknown> = {}) {
  // Renders exist only in live mode: a test key's renders.create writes nothing.
  return recordEvent(tx, { workspaceId: row.workspace_id, type, livemode: true, data: { object: presentRender(row), ...extra } });
}

function asRenderFailure(error: unknown, workDir: string, renderId: string): RenderFailure {
  if (error instanceof RenderFailure) return error;
  if (error instanceof ApiError && error.code === "validation_failed") return new RenderFailure("invalid_composition", error.message);
  if (error instanceof FfmpegError) {
    // The work directory's path means nothing to the client.
    const detail = error.stderr.split(`${workDir}${path.sep}`).join("").split("\n").slice(-6).join("\n");
    return new RenderFailure("ffmpeg_failed", detail ? `${error.message}: ${detail}` : error.message);
  }
  logger.error({ err: error, render_id: renderId }, "render failed unexpectedly");
  return new RenderFailure("internal_error", "The render failed unexpectedly; it has been logged.");
}

/** Writes ffmpeg's progress to the record, at most every PROGRESS_INTERVAL_MS and in order. */
class ProgressWriter {
  private written = 0;
  private writtenAt = 0;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly prisma: PrismaClient, private readonly renderId: string) {}

  report(percent: number): void {
    const now = Date.now();
    if (percent <= this.written || now - this.writtenAt < PROGRESS_INTERVAL_MS) return;
    this.written = percent;
    this.writtenAt = now;
    this.chain = this.chain
      .then(() => this.prisma.render.updateMany({ where: { render_id: this.renderId, render_status: "rendering" }, data: { progress: percent } }))
      .then(
        () => undefined,
        (error: unknown) => logger.warn({ err: error, render_id: this.renderId }, "render progress not written"),
      );
  }

  /** Waits for the writes under way, so none lands after the final state. */
  settle(): Promise<void> {
    return this.chain;
  }
}
