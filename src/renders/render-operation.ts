// The render operation: turns a queued render into an MP4 (docs/renders.md). It runs on the
// operation mechanism (src/operations): the render record mirrors its operation's moves.
//
//   queued ──claim──► rendering ──► completed   output stored, output_url signed, render.completed
//     ▲                   ├───────► failed      error_code, error_message; credits refunded, render.failed
//     └──(lease ran out)──┘                     retaken by the sweep while attempts remain
//
// render.started fires with the claim. The work directory is the operation's own and is removed
// whatever happens.
import path from "node:path";
import { writeFile } from "node:fs/promises";
import { z } from "zod";
import type { Tx } from "../db/transaction.js";
import { recordEvent } from "../outbox/record-event.js";
import { ApiError } from "../errors/api-error.js";
import { logger } from "../logger.js";
import { FONT_PATH } from "../media/binaries.js";
import { FfmpegError, runFfmpeg } from "../media/ffmpeg.js";
import { probeMedia } from "../media/probe.js";
import { defineOperationKind, OperationFailure, type OperationRow } from "../operations/kind.js";
import { FORMAT_SIZES, RENDER_FORMATS, isRenderFormat, parseComposition, type Composition } from "./composition.js";
import { buildRenderCommand } from "./render-command.js";
import { downloadMedia } from "./media.js";
import { MAX_ERROR_MESSAGE, RenderFailure } from "./render-failure.js";
import { presentRender, renderOutputKey } from "./present.js";

/** What a finished attempt hands to the completion. */
const renderResult = z.object({ output_key: z.string(), output_size_bytes: z.number().int(), duration_seconds: z.number() });

function emit(tx: Tx, type: string, row: { workspace_id: string } & Record<string, unknown>, extra: Record<string, unknown> = {}) {
  // Renders exist only in live mode: a test key's renders.create writes nothing.
  return recordEvent(tx, { workspaceId: row.workspace_id, type, livemode: true, data: { object: presentRender(row), ...extra } });
}

/** The parsed composition and the output size; RenderFailure invalid_composition otherwise. */
function renderInput(render: { video_format: string | null; video: { composition: unknown; video_format: string | null } | null }): { composition: Composition; size: { width: number; height: number } } {
  if (!render.video) throw new RenderFailure("invalid_composition", "The render names no video.");
  const format = render.video_format ?? render.video.video_format;
  if (!isRenderFormat(format)) throw new RenderFailure("invalid_composition", `video_format '${format}' is not one of ${RENDER_FORMATS.join(", ")}.`);
  return { composition: parseComposition(render.video.composition), size: FORMAT_SIZES[format] };
}

function asRenderFailure(error: unknown, workDir: string | undefined, renderId: string): OperationFailure {
  if (error instanceof OperationFailure) return error;
  if (error instanceof ApiError && error.code === "validation_failed") return new RenderFailure("invalid_composition", error.message);
  if (error instanceof FfmpegError) {
    // The work directory's path means nothing to the client.
    const stderr = workDir ? error.stderr.split(`${workDir}${path.sep}`).join("") : error.stderr;
    const detail = stderr.split("\n").slice(-6).join("\n");
    return new RenderFailure("ffmpeg_failed", detail ? `${error.message}: ${detail}` : error.message);
  }
  logger.error({ err: error, render_id: renderId }, "render failed unexpectedly");
  return new RenderFailure("internal_error", "The render failed unexpectedly; it has been logged.");
}

/** Moves the render of an operation; the state it leaves is the condition. */
async function moveRender(tx: Tx, operation: OperationRow, from: string[], data: Record<string, unknown>) {
  const [row] = await tx.render.updateManyAndReturn({ where: { render_id: operation.subject_id, render_status: { in: from } }, data });
  return row;
}

export const renderOperation = defineOperationKind({
  kind: "render",
  queue: "render",
  // The render record holds what the work needs (its video, its format).
  input: z.strictObject({}),
  maxAttempts: 2,

  async onStart(tx, operation) {
    const row = await moveRender(tx, operation, ["queued"], { render_status: "rendering", render_started_at: new Date(), progress: 0 });
    if (row) await emit(tx, "render.started", row);
  },

  async onProgress(prisma, operation, percent) {
    await prisma.render.updateMany({ where: { render_id: operation.subject_id, render_status: "rendering" }, data: { progress: percent } });
  },

  async run(context) {
    const { prisma, config, outbound, files, operation } = context;
    const renderId = operation.subject_id;
    const startedAt = performance.now();
    const render = await prisma.render.findUnique({
      where: { render_id: renderId },
      include: { video: { select: { composition: true, video_format: true } } },
    });
    if (!render) throw new RenderFailure("internal_error", "The render record is gone.");
    let workDir: string | undefined;
    try {
      const { composition, size } = renderInput(render);
      workDir = await context.workDir();
      const media = await downloadMedia({ outbound, storage: files.storage, signer: files.signer, db: prisma, workspaceId: render.workspace_id }, composition, workDir, { maxBytes: config.renderMediaMaxBytes, timeoutMs: config.renderMediaTimeoutMs });
      const outputPath = path.join(workDir, "output.mp4");
      const command = buildRenderCommand({ composition, size, media, workDir, fontFile: FONT_PATH, outputPath, preset: config.renderPreset });
      for (const file of command.files) await writeFile(file.path, file.content);
      await runFfmpeg(command.args, {
        cwd: workDir,
        timeoutMs: config.renderTimeoutMs,
        signal: context.signal,
        onProgress: (seconds) => context.progress((seconds / composition.duration) * 100),
      });
      const output = await probeMedia(outputPath);
      if (!output.streams.some((stream) => stream.codec_type === "video") || !output.streams.some((stream) => stream.codec_type === "audio")) {
        throw new RenderFailure("ffmpeg_failed", "The output lacks a video or an audio stream.");
      }
      const durationSeconds = Math.round((output.duration ?? composition.duration) * 1000) / 1000;
      const key = renderOutputKey(render.workspace_id, renderId);
      const stored = await files.storage.put(key, outputPath, { contentType: "video/mp4" }).catch((error: unknown) => {
        logger.error({ err: error, render_id: renderId, key }, "render output could not be stored");
        throw new RenderFailure("storage_failed", "The output could not be stored.");
      });
      logger.info({ render_id: renderId, duration_seconds: durationSeconds, size_bytes: stored.size, took_ms: Math.round(performance.now() - startedAt) }, "render completed");
      return { result: { output_key: key, output_size_bytes: stored.size, duration_seconds: durationSeconds } };
    } catch (error) {
      throw asRenderFailure(error, workDir, renderId);
    }
  },

  async onComplete(tx, operation, settlement, { files }) {
    const result = renderResult.parse(operation.result);
    const row = await moveRender(tx, operation, ["rendering"], {
      ...result,
      output_url: files.signedUrl(result.output_key),
      render_status: "completed",
      progress: 100,
      credits_consumed: settlement.creditsSpent,
      render_completed_at: new Date(),
      error_code: null,
      error_message: null,
    });
    if (row) await emit(tx, "render.completed", row);
    // Deleted while it rendered cannot happen (renders.delete refuses a running render).
  },

  async onFail(tx, operation, failure, settlement) {
    const row = await moveRender(tx, operation, ["queued", "rendering"], {
      render_status: "failed",
      error_code: failure.code,
      error_message: failure.message.slice(0, MAX_ERROR_MESSAGE),
      credits_consumed: settlement.creditsSpent,
    });
    if (row) await emit(tx, "render.failed", row, { credits_refunded: settlement.creditsRefunded });
  },

  async onRetake(tx, operation) {
    await moveRender(tx, operation, ["rendering"], { render_status: "queued", progress: 0, render_started_at: null });
  },
});
