// One segment of a split render (docs/renders.md, "Split rendering"): frames [first, last) of the
// render's picture, drawn by the one graph builder with that time window, encoded alone and stored
// in the video's segment cache under its content hash. Any worker on any machine takes it from the
// render_segment queue; a worker that dies holding it loses only it: its lease runs out and the
// sweep queues it again (src/operations/sweep.ts).
//
// A segment holds no credits and moves no record: the render's own operation (../render-operation.ts)
// waits for its segments, joins them, and is the one that completes or fails the render, settles
// its hold and fires its events.
import path from "node:path";
import { z } from "zod";
import { runFfmpeg } from "../../media/ffmpeg.js";
import { probeMedia } from "../../media/probe.js";
import { defineOperationKind, type OperationOutcome, type OperationRunContext } from "../../operations/kind.js";
import { mergeValues } from "../../video-model/index.js";
import { FORMAT_SIZES, isRenderFormat, parseComposition } from "../composition.js";
import { downloadMedia } from "../media.js";
import { renderOutput } from "../output-spec.js";
import { writeFiles } from "../produce.js";
import { buildRenderCommand } from "../render-command.js";
import { asRenderFailure, RenderFailure } from "../render-failure.js";

export const segmentInput = z.strictObject({
  index: z.number().int().min(0),
  first: z.number().int().min(0),
  last: z.number().int().min(1),
  /** The content hash the render planned it under, and the storage key it goes to. */
  hash: z.string(),
  key: z.string(),
  /** The composition as the render read it (a video edited meanwhile does not change it). */
  composition: z.unknown(),
  video_format: z.string(),
  output: renderOutput,
  merge: mergeValues.optional(),
});
export type SegmentInput = z.output<typeof segmentInput>;

/** Still worth drawing: the render waits for it. */
const RENDER_WAITING = ["queued", "rendering"];

export const renderSegmentOperation = defineOperationKind({
  kind: "render_segment",
  queue: "render_segment",
  input: segmentInput,
  maxAttempts: 2,

  async run(context, input) {
    const { prisma, operation } = context;
    const render = await prisma.render.findUnique({ where: { render_id: operation.subject_id }, select: { render_status: true, workspace_id: true } });
    if (!render || !RENDER_WAITING.includes(render.render_status)) return { result: { skipped: true } };
    const workDir = await context.workDir();
    try {
      return await drawSegment(context, input, render.workspace_id, workDir);
    } catch (error) {
      throw asRenderFailure(error, workDir, operation.subject_id);
    }
  },

  async onComplete() {},
  async onFail() {},
});

async function drawSegment(context: OperationRunContext, input: SegmentInput, workspaceId: string, workDir: string): Promise<OperationOutcome> {
  const { prisma, config, outbound, files, operation } = context;
  if (!isRenderFormat(input.video_format)) throw new RenderFailure("invalid_composition", `video_format '${input.video_format}' is not known.`);
  const composition = parseComposition(input.composition, { merge: input.merge });
  const media = await downloadMedia({ outbound, storage: files.storage, signer: files.signer, db: prisma, workspaceId }, composition, workDir, { maxBytes: config.renderMediaMaxBytes, timeoutMs: config.renderMediaTimeoutMs });
  const outputPath = path.join(workDir, `segment-${input.index}.mp4`);
  const command = await buildRenderCommand({
    composition, formatSize: FORMAT_SIZES[input.video_format], output: input.output, media, workDir, outputPath, preset: config.renderPreset,
    segment: { first: input.first, last: input.last },
  });
  await writeFiles(command.files);
  await runFfmpeg(command.args, { cwd: workDir, timeoutMs: config.renderTimeoutMs, signal: context.signal, onProgress: (seconds) => context.progress((seconds / command.duration) * 100) });
  const video = (await probeMedia(outputPath).catch(() => undefined))?.streams.find((stream) => stream.codec_type === "video");
  if (!video) throw new RenderFailure("ffmpeg_failed", `Segment ${input.index} came out without a picture.`);
  await files.storage.put(input.key, outputPath, { contentType: "video/mp4" }).catch(() => {
    throw new RenderFailure("storage_failed", `Segment ${input.index} could not be stored.`);
  });
  // The render failed while this segment was drawn: nothing will join it, so it is not kept.
  const now = await prisma.render.findUnique({ where: { render_id: operation.subject_id }, select: { render_status: true } });
  if (!now || !RENDER_WAITING.includes(now.render_status)) {
    await files.storage.delete(input.key).catch(() => undefined);
    return { result: { skipped: true } };
  }
  return { result: { key: input.key, frames: input.last - input.first } };
}
