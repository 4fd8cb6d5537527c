// Split rendering (docs/renders.md, "Split rendering"): a render longer than the threshold is cut
// into segments drawn by any worker and joined without re-encoding. Two real worker processes on a
// Redis and database of this file's own, real ffmpeg, the threshold lowered to 2 s so that 6-s
// compositions at 320 × 180 make three segments.
// - The joined output is the one-piece render: frame count exact, the frames on both sides of each
//   cut within a small pixel difference of a one-piece render of the same composition (a wipe and
//   karaoke captions run across the cuts), the sound continuous around the cuts; one
//   render.started and one render.completed; one charge.
// - Rendered again, its segments are reused; after a change late in the composition only the last
//   segment is drawn again. The cache keeps the last render's segments and nothing else, but for
//   those another render of the video still running planned to reuse.
// - A worker killed (SIGKILL) holding a segment: the segment is retaken, the render completes,
//   charged once.
// - A render whose segment fails: failed once, refunded, no segment file left behind.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FFMPEG_PATH, FFPROBE_PATH } from "../src/media/binaries.js";
import { parseComposition } from "../src/renders/composition.js";
import { renderOutput } from "../src/renders/output-spec.js";
import { produceRender } from "../src/renders/produce.js";
import { balanceOf, funded, ok, renderEnded, useLoopbackImages } from "./support/action-calls.js";
import { isolatedEnvironment, useService, type Client } from "./support/service.js";
import { spawnWorker, type ServiceProcess } from "./support/service-process.js";
import { waitFor } from "./support/wait.js";
import { meanDifference } from "./support/frames.js";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });
const run = promisify(execFile);

const LEASE_MS = 1500;
const SWEEP_MS = 500;
const environment = isolatedEnvironment("render_split", { runWorkers: false, dispatchIntervalMs: 60_000, outboundAllow: ["127.0.0.1"] });
const service = useService(environment.overrides);
const prisma = () => service.service.database.prisma;
const media = useLoopbackImages();

const WORKER_ENV = {
  CUTROOM_RENDER_PRESET: "ultrafast",
  CUTROOM_RENDER_SPLIT_SECONDS: "2",
  CUTROOM_QUEUE_CONCURRENCY: "render=2,render_segment=1",
  CUTROOM_OPERATION_LEASE_MS: String(LEASE_MS),
  CUTROOM_OPERATION_SWEEP_MS: String(SWEEP_MS),
  CUTROOM_OPERATION_REQUEUE_AFTER_MS: "1000",
  CUTROOM_JOB_SCHEDULE_CHECK_MS: "500",
  CUTROOM_DISPATCH_INTERVAL_MS: "60000",
  CUTROOM_OUTBOUND_ALLOW: "127.0.0.1",
};
const workers: ServiceProcess[] = [];
const startWorker = async () => {
  const worker = await spawnWorker(environment, WORKER_ENV);
  workers.push(worker);
  return worker;
};

let scratch = "";
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "cutroom-render-split-"));
  await Promise.all([startWorker(), startWorker()]);
});
afterAll(async () => {
  for (const worker of workers) {
    if (worker.process.exitCode === null && worker.process.signalCode === null) {
      worker.process.kill("SIGKILL");
      await worker.exited;
    }
  }
  await rm(scratch, { recursive: true, force: true });
});

const FPS = 25;
const OUTPUT = { width: 320, quality: "standard" } as const;

/**
 * 6 s: a red layer wiped away to a blue one across the cut at 4 s, karaoke captions across the cut
 * at 2 s, a progress bar filling over the whole time (a frame out of place shows), a title in the
 * last segment, and a 440 Hz tone throughout.
 */
function story(title = "The end") {
  return {
    version: 2, duration: 6, fps: FPS, background_color: "#000000", loudness: false,
    layers: [
      { type: "color", color: "#CC2020", start: 0, end: 4.5, transition_out: { type: "wipe_right", duration: 1 } },
      { type: "color", color: "#2040CC", start: 3.5, end: 6, transition_in: { type: "wipe_right", duration: 1 } },
      { type: "shape", shape: "progress_bar", color: "#FFFFFF", x: 100, y: 60, width: 1720, height: 40, start: 0, end: 6 },
      {
        type: "subtitles",
        words: [
          { word: "Split", start: 1.2, end: 1.6 }, { word: "across", start: 1.6, end: 2.1 },
          { word: "the", start: 2.1, end: 2.3 }, { word: "cut.", start: 2.3, end: 2.9 },
        ],
        style: { preset: "karaoke", font_size: 96 },
      },
      { type: "text", text: title, font_size: 120, start: 4.6, end: 6 },
      { type: "tone", frequency: 440, volume: 0.3, start: 0, end: 6 },
    ],
  };
}

async function createVideo(client: Client, composition: unknown): Promise<string> {
  const response = await client.post("/api/v1/videos", { video_name: "split", video_format: "landscape", composition });
  expect(response.status, response.text).toBe(201);
  return response.body.video_id as string;
}

async function renderVideo(client: Client, videoId: string, output: unknown = OUTPUT): Promise<string> {
  return ok(await client.post("/api/v1/actions/renders.create", { video_id: videoId, output })).render_id as string;
}

async function download(url: string, name: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  const file = path.join(scratch, name);
  const { writeFile } = await import("node:fs/promises");
  await writeFile(file, Buffer.from(await response.arrayBuffer()));
  return file;
}

async function frameCount(file: string): Promise<number> {
  const { stdout } = await run(FFPROBE_PATH, ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", file]);
  return Number(stdout.trim());
}

/** Frame number `n` (counted from 0) as RGB pixels. */
async function frame(file: string, n: number): Promise<Buffer> {
  const { stdout } = await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-i", file, "-vf", `select=eq(n\\,${n})`, "-vsync", "0", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], { encoding: "buffer", maxBuffer: 8 << 20 });
  return stdout;
}

/** Mono samples of the sound between two seconds. */
async function samples(file: string, from: number, to: number): Promise<Float32Array> {
  const { stdout } = await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-i", file, "-af", `atrim=${from}:${to},pan=mono|c0=c0`, "-ar", "48000", "-f", "f32le", "-"], { encoding: "buffer", maxBuffer: 8 << 20 });
  const bytes = stdout as unknown as Buffer;
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
}

/** Files of the video's segment cache in shared storage. */
async function cached(workspaceId: string, videoId: string): Promise<string[]> {
  return (await readdir(path.join(environment.dataDir, "storage", "render-cache", workspaceId, videoId)).catch(() => [] as string[])).filter((name) => name.endsWith(".mp4")).sort();
}

/** Work directories of a render's segment operations still on this machine. */
async function segmentWorkDirs(renderId: string): Promise<string[]> {
  const ids = (await prisma().operation.findMany({ where: { subject_id: renderId, kind: "render_segment" }, select: { operation_id: true } })).map((row) => row.operation_id);
  return (await readdir(os.tmpdir())).filter((name) => ids.some((id) => name.startsWith(`cutroom-op-${id}-`)));
}

const renderEvents = async (workspaceId: string, renderId: string) =>
  (await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId }, orderBy: { seq: "asc" } }))
    .filter((event) => event.type.startsWith("render.") && (event.data as { object?: { render_id?: string } }).object?.render_id === renderId)
    .map((event) => event.type);

describe("a split render", () => {
  it("is the one-piece render: frames exact, no seam at the cuts, continuous sound, one completion, one charge", async () => {
    const fixture = await funded(service, 100);
    const videoId = await createVideo(fixture.client, story());
    const renderId = await renderVideo(fixture.client, videoId);
    const render = await renderEnded(fixture.client, videoId, renderId, 170_000);
    expect(render, JSON.stringify(render)).toMatchObject({ render_status: "completed", progress: 100, credits_consumed: 10, segments: { total: 3, reused: 0 } });
    const split = await download(render.output_url as string, "split.mp4");

    // The same composition in one piece, through the same graph builder.
    const workDir = await mkdtemp(path.join(scratch, "whole-"));
    const whole = (await produceRender({
      composition: parseComposition(story()), formatSize: { width: 1920, height: 1080 }, output: renderOutput.parse(OUTPUT), media: new Map(), workDir,
      preset: "ultrafast", timeoutMs: 120_000, progress: () => undefined,
    })).files[0]!.path;

    expect(await frameCount(split)).toBe(6 * FPS);
    expect(await frameCount(whole)).toBe(6 * FPS);
    // Each cut (frames 50 and 100): the two frames either side, and a frame well inside a segment.
    for (const n of [0, 48, 49, 50, 51, 75, 98, 99, 100, 101, 149]) {
      const difference = meanDifference(await frame(split, n), await frame(whole, n));
      expect(difference, `frame ${n}`).toBeLessThan(4);
    }
    // The frames really change across the cuts (the comparison can fail): the wipe moves between 99 and 101.
    expect(meanDifference(await frame(split, 96), await frame(split, 104))).toBeGreaterThan(10);

    // The sound around each cut: the tone at its level, no gap, no jump between samples.
    const expectedStep = 2 * Math.PI * 440 / 48_000 * 0.3;
    for (const cut of [2, 4]) {
      const around = await samples(split, cut - 0.05, cut + 0.05);
      expect(around.length).toBeGreaterThan(4000);
      const rms = Math.sqrt(around.reduce((sum, value) => sum + value * value, 0) / around.length);
      expect(rms, `level at ${cut} s`).toBeGreaterThan(0.3 / Math.SQRT2 * 0.85);
      expect(rms).toBeLessThan(0.3 / Math.SQRT2 * 1.15);
      let largest = 0;
      for (let index = 1; index < around.length; index++) largest = Math.max(largest, Math.abs(around[index]! - around[index - 1]!));
      expect(largest, `largest step at ${cut} s`).toBeLessThan(expectedStep * 1.5);
    }
    const quality = render.quality as { drift_ms: number; video_seconds: number };
    expect(quality.video_seconds).toBeCloseTo(6, 2);
    expect(quality.drift_ms).toBeLessThan(1000 / FPS);

    expect(await renderEvents(fixture.workspaceId, renderId)).toEqual(["render.started", "render.completed"]);
    expect(await balanceOf(service, fixture.workspaceId)).toBe(90);
    expect(await prisma().creditTransaction.count({ where: { workspace_id: fixture.workspaceId, action_type: "refund" } })).toBe(0);
    // Three segment operations, holding nothing.
    const segments = await prisma().operation.findMany({ where: { subject_id: renderId, kind: "render_segment" } });
    expect(segments.map((row) => [row.status, row.credits_held])).toEqual([["completed", 0], ["completed", 0], ["completed", 0]]);

    // The segment files: in the video's cache (the last render's segments), nowhere else.
    const stored = await prisma().render.findUniqueOrThrow({ where: { render_id: renderId } });
    expect(await cached(fixture.workspaceId, videoId)).toEqual((stored.segment_hashes as string[]).map((hash) => `${hash}.mp4`).sort());
    expect(await segmentWorkDirs(renderId)).toEqual([]);
  });

  it("reuses the segments of the video's previous render; a late change draws only the last segment again", async () => {
    const fixture = await funded(service, 100);
    const videoId = await createVideo(fixture.client, story());
    const first = await renderEnded(fixture.client, videoId, await renderVideo(fixture.client, videoId), 170_000);
    expect(first).toMatchObject({ render_status: "completed", segments: { total: 3, reused: 0 } });

    const again = await renderEnded(fixture.client, videoId, await renderVideo(fixture.client, videoId), 170_000);
    expect(again).toMatchObject({ render_status: "completed", segments: { total: 3, reused: 3 } });
    expect(await frameCount(await download(again.output_url as string, "again.mp4"))).toBe(6 * FPS);

    ok(await fixture.client.patch(`/api/v1/videos/${videoId}`, { composition: story("A new ending") }));
    const changed = await renderEnded(fixture.client, videoId, await renderVideo(fixture.client, videoId), 170_000);
    expect(changed).toMatchObject({ render_status: "completed", segments: { total: 3, reused: 2 } });
    const changedFile = await download(changed.output_url as string, "changed.mp4");
    expect(await frameCount(changedFile)).toBe(6 * FPS);
    // The new title is drawn: the last segment differs from the first render's, the others do not.
    const firstFile = await download(first.output_url as string, "first.mp4");
    expect(meanDifference(await frame(changedFile, 140), await frame(firstFile, 140))).toBeGreaterThan(0.5);
    expect(meanDifference(await frame(changedFile, 60), await frame(firstFile, 60))).toBeLessThan(0.5);

    // The cache holds the last render's three segments only.
    const stored = await prisma().render.findUniqueOrThrow({ where: { render_id: changed.render_id as string } });
    const lastSegments = (stored.segment_hashes as string[]).map((hash) => `${hash}.mp4`).sort();
    expect(await cached(fixture.workspaceId, videoId)).toEqual(lastSegments);
    expect(await balanceOf(service, fixture.workspaceId)).toBe(70);

    // Another render of the video still running that planned to reuse those segments (its record
    // says so): a render at another size finishing meanwhile leaves them in the cache.
    const inFlight = await prisma().render.create({
      data: { render_id: "render_split_in_flight", workspace_id: fixture.workspaceId, video_id: videoId, render_status: "rendering", segment_hashes: stored.segment_hashes as string[] },
    });
    const smaller = await renderEnded(fixture.client, videoId, await renderVideo(fixture.client, videoId, { width: 160 }), 170_000);
    expect(smaller).toMatchObject({ render_status: "completed", segments: { total: 3, reused: 0 } });
    const smallerSegments = ((await prisma().render.findUniqueOrThrow({ where: { render_id: smaller.render_id as string } })).segment_hashes as string[]).map((hash) => `${hash}.mp4`);
    expect(await cached(fixture.workspaceId, videoId)).toEqual([...lastSegments, ...smallerSegments].sort());
    // Once nothing holds them, the next render's cleanup removes them.
    await prisma().render.delete({ where: { render_id: inFlight.render_id } });
    const next = await renderEnded(fixture.client, videoId, await renderVideo(fixture.client, videoId, { width: 160 }), 170_000);
    expect(next).toMatchObject({ render_status: "completed", segments: { total: 3, reused: 3 } });
    expect(await cached(fixture.workspaceId, videoId)).toEqual([...smallerSegments].sort());
  });

  it("survives a worker killed while it draws a segment: the segment is retaken, the render charged once", async () => {
    const fixture = await funded(service, 100);
    // Larger segments, so one is caught being drawn.
    const videoId = await createVideo(fixture.client, { ...story(), duration: 12 });
    const renderId = await renderVideo(fixture.client, videoId, { width: 1280 });
    const running = await waitFor("a segment being drawn", async () => {
      const rows = await prisma().operation.findMany({ where: { subject_id: renderId, kind: "render_segment", status: "running" } });
      return rows.find((row) => row.lease_owner && workers.some((worker) => row.lease_owner!.includes(`:${worker.process.pid}:`) && worker.process.exitCode === null && worker.process.signalCode === null));
    }, 120_000, 50);
    const victim = workers.find((worker) => running.lease_owner!.includes(`:${worker.process.pid}:`))!;
    victim.process.kill("SIGKILL");
    await victim.exited;
    // A worker in its place (the other one may have been running this render's own operation too).
    await startWorker();

    const render = await renderEnded(fixture.client, videoId, renderId, 170_000);
    expect(render, JSON.stringify(render)).toMatchObject({ render_status: "completed", credits_consumed: 10, segments: { total: 6, reused: 0 } });
    expect(await frameCount(await download(render.output_url as string, "killed.mp4"))).toBe(12 * FPS);
    const retaken = await prisma().operation.findUniqueOrThrow({ where: { operation_id: running.operation_id } });
    expect(retaken).toMatchObject({ status: "completed", attempts: 2 });
    expect(await renderEvents(fixture.workspaceId, renderId)).toEqual(["render.started", "render.completed"]);
    expect(await balanceOf(service, fixture.workspaceId)).toBe(90);
    expect(await prisma().creditTransaction.count({ where: { workspace_id: fixture.workspaceId, action_type: "refund" } })).toBe(0);
  });

  it("fails once when a segment fails, refunds the hold and leaves no segment file behind", async () => {
    const fixture = await funded(service, 100);
    const composition = story();
    // Not a picture: only the last segment's ffmpeg reads it (the sound does not).
    composition.layers.push({ type: "image", src: `${media.base}/notes.txt`, start: 4.2, end: 6 } as never);
    const videoId = await createVideo(fixture.client, composition);
    const renderId = await renderVideo(fixture.client, videoId);
    const render = await renderEnded(fixture.client, videoId, renderId, 170_000);
    expect(render).toMatchObject({ render_status: "failed", error_code: "ffmpeg_failed", credits_consumed: 0 });
    expect(await renderEvents(fixture.workspaceId, renderId)).toEqual(["render.started", "render.failed"]);
    expect(await balanceOf(service, fixture.workspaceId)).toBe(100);
    // Every segment has ended (drawn, failed or canceled) and none left a file.
    const segments = await prisma().operation.findMany({ where: { subject_id: renderId, kind: "render_segment" } });
    expect(segments.every((row) => ["completed", "failed", "canceled"].includes(row.status))).toBe(true);
    expect(await cached(fixture.workspaceId, videoId)).toEqual([]);
    expect(await segmentWorkDirs(renderId)).toEqual([]);
  });
});
