// The render operation: turns a queued render into an MP4 (docs/renders.md). It runs on the
// operation mechanism (src/operations): the render record mirrors its operation's moves.
//
//   queued ──claim──► rendering ──► completed   output stored, output_url signed, render.completed
//     ▲                   ├───────► failed      error_code, error_message; credits refunded, render.failed
//     └──(lease ran out)──┘                     retaken by the sweep while attempts remain
//
// render.started fires with the claim. The work directory is the operation's own and is removed
// whatever happens.
import { stat } from "node:fs/promises";
import { z } from "zod";
import type { Tx } from "../db/transaction.js";
import type { Prisma } from "../generated/prisma/client.js";
import { recordEvent } from "../outbox/record-event.js";
import { logger } from "../logger.js";
import { defineOperationKind } from "../operations/kind.js";
import { subjectStatus } from "../operations/subject-status.js";
import { mergeValues, type MergeValues } from "../video-model/index.js";
import { FORMAT_SIZES, RENDER_FORMATS, isRenderFormat, parseComposition, type Composition } from "./composition.js";
import { downloadMedia } from "./media.js";
import { DEFAULT_OUTPUT, outputIssues, renderOutput } from "./output-spec.js";
import { produceRender, type Produced } from "./produce.js";
import { planSegments } from "./split/plan.js";
import { renderSplit } from "./split/split-render.js";
import { asRenderFailure, MAX_ERROR_MESSAGE, RenderFailure } from "./render-failure.js";
import { presentRender, renderOutputKey } from "./present.js";
import { RenderPhases } from "./phases.js";

/** One stored file of a render, as `outputs` lists it (its url is signed at completion). */
const storedOutput = z.object({
  kind: z.enum(["video", "audio", "still", "poster", "thumbnail", "contact_sheet"]),
  content_type: z.string(),
  bytes: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});

/** What a finished attempt hands to the completion. */
const renderResult = z.object({
  output_key: z.string(),
  output_size_bytes: z.number().int(),
  duration_seconds: z.number(),
  output_format: z.string(),
  outputs: z.array(storedOutput),
  output_keys: z.array(z.string()),
  quality: z.record(z.string(), z.unknown()).nullable(),
  /** How it was made: segments drawn and reused (1 and 0 in one piece), and their content hashes. */
  segments: z.object({ total: z.number().int(), reused: z.number().int() }).default({ total: 1, reused: 0 }),
  segment_hashes: z.array(z.string()).nullable().default(null),
});

function emit(tx: Tx, type: string, row: { workspace_id: string } & Record<string, unknown>, extra: Record<string, unknown> = {}) {
  // Renders exist only in live mode: a test key's renders.create writes nothing.
  return recordEvent(tx, { workspaceId: row.workspace_id, type, livemode: true, data: { object: presentRender(row), ...extra } });
}

/** The parsed composition and the output size; RenderFailure invalid_composition otherwise. */
function renderInput(render: { video_format: string | null; video: { composition: unknown; video_format: string | null } | null }, merge?: MergeValues): { composition: Composition; formatSize: { width: number; height: number } } {
  if (!render.video) throw new RenderFailure("invalid_composition", "The render names no video.");
  const format = render.video_format ?? render.video.video_format;
  if (!isRenderFormat(format)) throw new RenderFailure("invalid_composition", `video_format '${format}' is not one of ${RENDER_FORMATS.join(", ")}.`);
  return { composition: parseComposition(render.video.composition, { merge }), formatSize: FORMAT_SIZES[format] };
}

/** The render record an operation drives: render_status moves queued → rendering → completed/failed. */
const renderStatus = subjectStatus({
  table: (tx: Tx) => tx.render,
  id: "render_id",
  status: "render_status",
  waiting: "queued",
  running: "rendering",
});
const moveRender = renderStatus.move;

export const renderOperation = defineOperationKind({
  kind: "render",
  queue: "render",
  // The render record holds its video and format; the operation what renders.create asked of the
  // output (absent on renders queued before outputs existed: an MP4 at the format's size).
  input: z.strictObject({ output: renderOutput.optional(), merge: mergeValues.optional() }),
  maxAttempts: 2,

  async onStart(tx, operation) {
    const row = await moveRender(tx, operation, ["queued"], { render_status: "rendering", render_started_at: new Date(), progress: 0 });
    // Once per render: an attempt retaken after a dead worker starts again without a second event.
    if (row && operation.attempts === 1) await emit(tx, "render.started", row);
  },

  async onProgress(prisma, operation, percent) {
    await prisma.render.updateMany({ where: { render_id: operation.subject_id, render_status: "rendering" }, data: { progress: percent } });
  },

  async run(context, input) {
    const { prisma, config, outbound, files, operation } = context;
    const renderId = operation.subject_id;
    const startedAt = performance.now();
    const render = await prisma.render.findUnique({
      where: { render_id: renderId },
      include: { video: { select: { composition: true, video_format: true } } },
    });
    if (!render) throw new RenderFailure("internal_error", "The render record is gone.");
    let workDir: string | undefined;
    const phases = new RenderPhases();
    try {
      const { composition, formatSize } = renderInput(render, input.merge);
      const output = input.output ?? DEFAULT_OUTPUT;
      const issue = outputIssues(output, composition.duration)[0];
      if (issue) throw new RenderFailure("invalid_composition", `${issue.path}: ${issue.message}`);
      const dir = (workDir = await context.workDir());
      const media = await phases.time("download", () => downloadMedia({ outbound, storage: files.storage, signer: files.signer, db: prisma, workspaceId: render.workspace_id }, composition, dir, { maxBytes: config.renderMediaMaxBytes, timeoutMs: config.renderMediaTimeoutMs }));
      // Longer than the split threshold: segments drawn by any worker, joined here.
      const plan = planSegments(composition, output, config.renderSplitSeconds);
      let produced: Produced;
      let segments = { total: 1, reused: 0 };
      let segmentHashes: string[] | null = null;
      if (plan) {
        const split = await renderSplit({
          context, render, rawComposition: render.video!.composition, composition, merge: input.merge, videoFormat: render.video_format ?? render.video!.video_format,
          formatSize, output, media, workDir, plan, phases,
        });
        ({ produced, segments } = split);
        segmentHashes = split.hashes;
      } else {
        produced = await produceRender({
          composition, formatSize, output, media, workDir, preset: config.renderPreset, timeoutMs: config.renderTimeoutMs, signal: context.signal,
          progress: (percent) => context.progress(percent), phases,
        });
      }
      const stored: { key: string; bytes: number }[] = [];
      await phases.time("store", async () => {
        for (const file of produced.files) {
          const key = renderOutputKey(render.workspace_id, renderId, file.suffix);
          const saved = await files.storage.put(key, file.path, { contentType: file.content_type }).catch((error: unknown) => {
            logger.error({ err: error, render_id: renderId, key }, "render output could not be stored");
            throw new RenderFailure("storage_failed", "The output could not be stored.");
          });
          stored.push({ key, bytes: saved.size ?? (await stat(file.path)).size });
        }
      });
      const main = stored[0]!;
      logger.info({ render_id: renderId, format: output.format, duration_seconds: produced.duration_seconds, size_bytes: main.bytes, took_ms: Math.round(performance.now() - startedAt), phases_ms: phases.ms }, "render completed");
      return {
        result: {
          output_key: main.key,
          output_size_bytes: main.bytes,
          duration_seconds: produced.duration_seconds,
          output_format: output.format,
          outputs: produced.files.map((file, index) => ({ kind: file.kind, content_type: file.content_type, bytes: stored[index]!.bytes, width: file.width, height: file.height })),
          output_keys: stored.map((entry) => entry.key),
          quality: produced.quality as Record<string, unknown> | null,
          segments,
          segment_hashes: segmentHashes,
        },
      };
    } catch (error) {
      throw asRenderFailure(error, workDir, renderId);
    }
  },

  async onComplete(tx, operation, settlement, { files }) {
    const result = renderResult.parse(operation.result);
    const outputs = result.outputs.map((entry, index) => ({ kind: entry.kind, url: files.signedUrl(result.output_keys[index]!), content_type: entry.content_type, bytes: entry.bytes, width: entry.width, height: entry.height }));
    const row = await moveRender(tx, operation, ["rendering"], {
      ...result,
      quality: (result.quality ?? undefined) as Prisma.InputJsonValue | undefined,
      segment_hashes: result.segment_hashes ?? undefined,
      outputs,
      output_url: files.signedUrl(result.output_key),
      thumbnail_url: outputs.find((entry) => entry.kind === "thumbnail")?.url ?? null,
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
