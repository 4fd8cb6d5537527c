// A split render, run by the render's own operation (docs/renders.md, "Split rendering"):
//
//   plan ──► a render_segment operation per segment not cached ──► any worker draws each
//     │                                                                   │
//     └──► the sound of the whole composition, once (loudness passes) ────┤
//                                                                         ▼
//          wait for every segment (progress: their sum) ──► join (concat demuxer, no re-encoding)
//          with the sound muxed in ──► the checks, derivatives and quality report of any render
//
// Segments are stored in the video's segment cache under their content hash (./plan.ts): a segment
// whose hash the video's previous split render already made is reused instead of drawn again. The
// cache keeps the segments of the video's last completed split render: once a render completes,
// the previous render's segments it did not use are removed; a render that fails removes the
// segments it drew (waiting first for the ones being drawn), so it leaves none behind.
//
// The operation waits while its segments run, keeping its lease alive. If its worker dies, the
// retaken attempt finds the segment operations already queued (by index and hash) and waits for
// them rather than queueing them again; a dead segment worker's segment is retaken the same way.
import path from "node:path";
import type { RenderPhases } from "../phases.js";
import { writeFile } from "node:fs/promises";
import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import type { OperationRow, OperationRunContext } from "../../operations/kind.js";
import { anyKind } from "../../operations/kind.js";
import { cancelOperation, insertOperation } from "../../operations/store.js";
import { enqueueOperation } from "../../operations/worker.js";
import { runFfmpeg } from "../../media/ffmpeg.js";
import { logger } from "../../logger.js";
import type { MergeValues } from "../../video-model/index.js";
import type { Composition } from "../composition.js";
import { num } from "../filter-values.js";
import { AUDIO_SAMPLE_RATE, parseLoudnormJson, type MeasuredLoudness } from "../graph/audio.js";
import { resolveFps, resolveRange, type RenderOutput } from "../output-spec.js";
import { finishRender, writeFiles, type Produced } from "../produce.js";
import { audioCodec, buildRenderCommand, needsLoudnessPass } from "../render-command.js";
import { RENDER_ERROR_CODES, RenderFailure } from "../render-failure.js";
import { segmentHash, segmentKey, type SegmentPlan } from "./plan.js";
import { renderSegmentOperation, type SegmentInput } from "./segment-operation.js";

/** How often the render looks at its segments while it waits. */
const POLL_MS = 250;
/** Share of the progress the segments make; the rest is the join and the checks after it. */
const SEGMENTS_SHARE = 90;

export interface SplitRenderInput {
  context: OperationRunContext;
  render: { render_id: string; workspace_id: string; video_id: string | null };
  /** The composition as stored on the video (segments parse it again), its parsed form, the merge values. */
  rawComposition: unknown;
  composition: Composition;
  merge?: MergeValues;
  videoFormat: string;
  formatSize: { width: number; height: number };
  output: RenderOutput;
  media: ReadonlyMap<string, string>;
  workDir: string;
  plan: SegmentPlan[];
  /** Where the render's time goes (logged with it). */
  phases: RenderPhases;
}

export interface SplitRendered {
  produced: Produced;
  segments: { total: number; reused: number };
  /** Content hash of each segment, in order (kept on the render: the cache it leaves). */
  hashes: string[];
}

interface PlannedSegment extends SegmentPlan {
  hash: string;
  key: string;
  reused: boolean;
}

const segmentKind = anyKind(renderSegmentOperation);

export async function renderSplit(input: SplitRenderInput): Promise<SplitRendered> {
  const { context, render, composition, output, workDir } = input;
  const { files } = context;
  const cacheOwner = render.video_id ?? render.render_id;
  const preset = context.config.renderPreset;

  // The plan: each segment's command as a segment's worker will build it, hashed.
  const previous = await previousHashes(context, render);
  const planned: PlannedSegment[] = [];
  await input.phases.time("plan", async () => {
    for (const segment of input.plan) {
      const command = await buildRenderCommand({
        composition, formatSize: input.formatSize, output, media: input.media, workDir, preset,
        outputPath: path.join(workDir, `segment-${segment.index}.mp4`), segment: { first: segment.first, last: segment.last },
      });
      await writeFiles(command.files);
      const hash = await segmentHash(command, workDir, path.join(workDir, `segment-${segment.index}.mp4`));
      const key = segmentKey(render.workspace_id, cacheOwner, hash);
      const reused = previous.has(hash) && (await files.storage.stat(key)) !== null;
      planned.push({ ...segment, hash, key, reused });
    }
  });

  // Said on the record before anything is drawn: another render of this video finishing meanwhile
  // keeps these in the cache (see keptByOthers).
  await context.prisma.render.updateMany({ where: { render_id: render.render_id }, data: { segment_hashes: planned.map((segment) => segment.hash) } });
  const operations = await queueSegments(input, planned);
  const phases = input.phases;
  try {
    const measured = await phases.time("sound", () => renderSound(input));
    await phases.time("segments_wait", () => waitForSegments(context, planned, operations));
    const outputPath = path.join(workDir, "output.mp4");
    await phases.time("join", () => join(input, planned, outputPath));
    const fps = resolveFps(composition.fps, output);
    const range = resolveRange(composition.duration, output, fps);
    const produced = await finishRender({ ...input, phases, timeoutMs: context.config.renderTimeoutMs, signal: context.signal }, outputPath, { duration: range.end - range.start, measured: measured ?? undefined });
    // The cache now holds this render's segments: the previous render's others go, unless a render
    // of the same video still running planned to reuse them (a preview and a full render at once).
    const kept = new Set([...planned.map((segment) => segment.hash), ...(await keptByOthers(context, render))]);
    for (const hash of await recentHashes(context, render)) if (!kept.has(hash)) await files.storage.delete(segmentKey(render.workspace_id, cacheOwner, hash)).catch(() => undefined);
    return { produced, segments: { total: planned.length, reused: planned.filter((segment) => segment.reused).length }, hashes: planned.map((segment) => segment.hash) };
  } catch (error) {
    // A lost lease means another attempt carries on with these segments: leave them.
    if (!context.signal.aborted) await abandon(context, planned, operations, previous);
    throw error;
  }
}

/** Hashes the video's other renders still queued or rendering have planned (their `segment_hashes`). */
async function keptByOthers(context: OperationRunContext, render: SplitRenderInput["render"]): Promise<Set<string>> {
  if (!render.video_id) return new Set();
  const rows = await context.prisma.render.findMany({
    where: { video_id: render.video_id, render_status: { in: ["queued", "rendering"] }, render_id: { not: render.render_id } },
    select: { segment_hashes: true },
  });
  return new Set(rows.flatMap((row) => hashesOf(row.segment_hashes)));
}

/** A record's `segment_hashes` (JSON) as the list of hashes it holds. */
function hashesOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((hash): hash is string => typeof hash === "string") : [];
}

/** Completed split renders of the video looked back at by the cleanup (see recentHashes). */
const CLEANUP_LOOKBACK = 5;

/** The segment hashes of the video's completed split renders, most recent first (at most `count`). */
async function completedSplitHashes(context: OperationRunContext, render: SplitRenderInput["render"], count: number): Promise<string[][]> {
  if (!render.video_id) return [];
  const rows = await context.prisma.render.findMany({
    where: { video_id: render.video_id, render_status: "completed", render_id: { not: render.render_id } },
    orderBy: { render_completed_at: "desc" },
    select: { segment_hashes: true },
    take: 20,
  });
  return rows
    .filter((row) => Array.isArray(row.segment_hashes))
    .slice(0, count)
    .map((row) => hashesOf(row.segment_hashes));
}

/** Content hashes of the segments the video's last completed split render left in the cache. */
async function previousHashes(context: OperationRunContext, render: SplitRenderInput["render"]): Promise<Set<string>> {
  return new Set((await completedSplitHashes(context, render, 1))[0] ?? []);
}

/**
 * Hashes of the video's last few completed split renders: the previous render's, and any an
 * earlier cleanup kept for a render then in flight, so they go once nothing plans to reuse them.
 */
async function recentHashes(context: OperationRunContext, render: SplitRenderInput["render"]): Promise<Set<string>> {
  return new Set((await completedSplitHashes(context, render, CLEANUP_LOOKBACK)).flat());
}

/**
 * The operation of each segment to draw: the one an earlier attempt of this render queued (same
 * index and hash), or a new one, queued after its insert commits.
 */
async function queueSegments(input: SplitRenderInput, planned: PlannedSegment[]): Promise<Map<number, string>> {
  const { context, render } = input;
  const existing = await context.prisma.operation.findMany({ where: { kind: segmentKind.kind, subject_id: render.render_id }, orderBy: { created_at: "asc" } });
  const byIndex = new Map<number, string>();
  const fresh: OperationRow[] = [];
  for (const segment of planned.filter((entry) => !entry.reused)) {
    const earlier = existing.find((row) => {
      const stored = row.input as Partial<SegmentInput> | null;
      return stored?.index === segment.index && stored.hash === segment.hash && row.status !== "canceled";
    });
    if (earlier) {
      byIndex.set(segment.index, earlier.operation_id);
      continue;
    }
    const segmentInput: SegmentInput = {
      index: segment.index, first: segment.first, last: segment.last, hash: segment.hash, key: segment.key,
      composition: input.rawComposition, video_format: input.videoFormat, output: input.output, ...(input.merge && { merge: input.merge }),
    };
    const row = await context.prisma.$transaction((tx) => insertOperation(tx, segmentKind, {
      workspaceId: render.workspace_id, subjectId: render.render_id, input: segmentInput, creditsHeld: 0, requestId: context.operation.request_id ?? undefined,
    }));
    byIndex.set(segment.index, row.operation_id);
    fresh.push(row);
  }
  for (const row of fresh) await enqueueOperation(context.enqueue, segmentKind, row);
  return byIndex;
}

/** The sound of the whole range, once: a WAV (after the loudness measuring pass when it normalises). */
async function renderSound(input: SplitRenderInput): Promise<MeasuredLoudness | undefined> {
  const { context, composition, workDir } = input;
  const wav: RenderOutput = { ...input.output, format: "wav" };
  const base = { composition, formatSize: input.formatSize, output: wav, media: input.media, workDir, preset: context.config.renderPreset };
  const run = { cwd: workDir, timeoutMs: context.config.renderTimeoutMs, signal: context.signal };
  let measured: MeasuredLoudness | undefined;
  if (needsLoudnessPass(composition, input.output)) {
    const pass = await buildRenderCommand({ ...base, outputPath: "-", loudness: "measure" });
    await writeFiles(pass.files);
    measured = parseLoudnormJson(await runFfmpeg(pass.args, { ...run, stderrBytes: 1 << 20 }));
  }
  const command = await buildRenderCommand({ ...base, outputPath: path.join(workDir, "sound.wav"), loudness: measured });
  await writeFiles(command.files);
  await runFfmpeg(command.args, run);
  return measured;
}

/** Waits until every segment is drawn; progress is their sum, by frames. A failed segment fails the render. */
async function waitForSegments(context: OperationRunContext, planned: PlannedSegment[], operations: Map<number, string>): Promise<void> {
  const total = planned.reduce((sum, segment) => sum + segment.last - segment.first, 0);
  const reusedFrames = planned.filter((segment) => segment.reused).reduce((sum, segment) => sum + segment.last - segment.first, 0);
  const ids = [...operations.values()];
  const frames = new Map(planned.map((segment) => [operations.get(segment.index), segment.last - segment.first]));
  for (;;) {
    if (context.signal.aborted) throw context.signal.reason ?? new Error("aborted");
    const rows = await context.prisma.operation.findMany({ where: { operation_id: { in: ids } }, select: { operation_id: true, status: true, progress: true, error_code: true, error_message: true } });
    const failed = rows.find((row) => row.status === "failed" || row.status === "canceled");
    if (failed) {
      const code = (RENDER_ERROR_CODES as readonly string[]).includes(failed.error_code ?? "") ? (failed.error_code as (typeof RENDER_ERROR_CODES)[number]) : "internal_error";
      throw new RenderFailure(code, failed.error_message ?? "A segment of the render failed.");
    }
    let done = reusedFrames;
    for (const row of rows) done += ((row.status === "completed" ? 100 : row.progress) / 100) * (frames.get(row.operation_id) ?? 0);
    context.progress((done / total) * SEGMENTS_SHARE);
    if (rows.length === ids.length && rows.every((row) => row.status === "completed")) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The segments, in order, joined by the concat demuxer without re-encoding, with the sound muxed in. */
async function join(input: SplitRenderInput, planned: PlannedSegment[], outputPath: string): Promise<void> {
  const { context, workDir, output, composition } = input;
  const list: string[] = [];
  for (const segment of planned) {
    const file = path.join(workDir, `part-${segment.index}.mp4`);
    try {
      await pipeline(await context.files.storage.open(segment.key), createWriteStream(file));
    } catch (error) {
      logger.error({ err: error, render_id: input.render.render_id, key: segment.key }, "render segment could not be read");
      throw new RenderFailure("storage_failed", `Segment ${segment.index} could not be read back.`);
    }
    list.push(`file '${path.basename(file)}'`);
  }
  await writeFile(path.join(workDir, "segments.txt"), `${list.join("\n")}\n`);
  const fps = resolveFps(composition.fps, output);
  const range = resolveRange(composition.duration, output, fps);
  await runFfmpeg([
    "-hide_banner", "-nostdin", "-nostats", "-y", "-loglevel", "error",
    "-f", "concat", "-safe", "0", "-i", "segments.txt", "-i", "sound.wav",
    "-map", "0:v", "-map", "1:a", "-c:v", "copy", ...audioCodec(output), "-ar", String(AUDIO_SAMPLE_RATE), "-ac", "2",
    "-movflags", "+faststart", "-t", num(range.end - range.start), outputPath,
  ], { cwd: workDir, timeoutMs: context.config.renderTimeoutMs, signal: context.signal });
  context.progress(SEGMENTS_SHARE + 5);
}

/**
 * After a failure: segments still queued are canceled, the ones being drawn are waited for, and
 * every segment this render drew is removed (the previous render's cached ones stay).
 */
async function abandon(context: OperationRunContext, planned: PlannedSegment[], operations: Map<number, string>, previous: Set<string>): Promise<void> {
  const ids = [...operations.values()];
  try {
    const deadline = Date.now() + context.config.renderTimeoutMs;
    while (Date.now() < deadline) {
      // Queued again after a dead worker's lease ran out counts as queued: canceled too.
      for (const id of ids) await context.prisma.$transaction((tx) => cancelOperation(tx, id, segmentKind));
      const running = await context.prisma.operation.count({ where: { operation_id: { in: ids }, status: { in: ["queued", "running"] } } });
      if (running === 0) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    for (const segment of planned) {
      if (!segment.reused && !previous.has(segment.hash)) await context.files.storage.delete(segment.key).catch(() => undefined);
    }
  } catch (error) {
    logger.warn({ err: error, operation_id: context.operation.operation_id }, "segments of a failed render not cleaned up");
  }
}
