// The render operation (src/renders/render-operation.ts) end to end: real ffmpeg, real BullMQ
// workers, real PostgreSQL. Media are served by a node:http server on loopback (allow-listed for
// the URL guard). A render row and its operation are written queued with prisma and the job
// enqueued, as the action renders.create does. This file runs workers, so it has a database and a
// Redis of its own (see jobs.test.ts for why).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { runInRequestContext } from "../src/context/request-context.js";
import { newId } from "../src/ids.js";
import { addCredits } from "../src/credits/ledger.js";
import { FFMPEG_PATH, FONT_PATH } from "../src/media/binaries.js";
import { probeMedia } from "../src/media/probe.js";
import { createFileService } from "../src/storage/from-config.js";
import { createFilesHandler } from "../rest/files.js";
import { renderOperation } from "../src/renders/render-operation.js";
import { insertOperation } from "../src/operations/store.js";
import { enqueueOperation } from "../src/operations/worker.js";
import { buildRenderCommand, escapeFilterValue } from "../src/renders/render-command.js";
import { DEFAULT_OUTPUT } from "../src/renders/output-spec.js";
import { parseComposition } from "../src/renders/composition.js";
import { ApiError } from "../src/errors/api-error.js";
import { createFixture, isolatedEnvironment, useService } from "./support/service.js";
import { waitFor, waitForStatus } from "./support/wait.js";

const run = promisify(execFile);
const MEDIA_MAX_BYTES = 1_000_000;
const environment = isolatedEnvironment("renders", { runWorkers: true, outboundAllow: ["127.0.0.1"], renderPreset: "ultrafast", renderMediaMaxBytes: MEDIA_MAX_BYTES, dispatchIntervalMs: 60_000 });
const overrides = environment.overrides;
const service = useService(overrides);
const prisma = () => service.service.database.prisma;

// ---------------------------------------------------------------------------------------------
// Media on loopback: a PNG and an MP3 made with ffmpeg, a 404, and a body over the size cap.

let mediaServer: Server;
let mediaBase: string;
let closedPortUrl: string;
let mediaDir: string;
const served = new Map<string, Buffer>();

beforeAll(async () => {
  mediaDir = await mkdtemp(path.join(os.tmpdir(), "cutroom-render-media-"));
  const png = path.join(mediaDir, "pattern.png");
  const mp3 = path.join(mediaDir, "beep.mp3");
  await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=160x120:d=1", "-frames:v", "1", png]);
  await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=3", "-c:a", "libmp3lame", mp3]);
  served.set("/pattern.png", await readFile(png));
  served.set("/beep.mp3", await readFile(mp3));
  served.set("/huge.png", Buffer.alloc(MEDIA_MAX_BYTES + 100_000, 1));

  mediaServer = createServer((request, response) => {
    const body = served.get(request.url ?? "");
    if (!body) return void response.writeHead(404).end("no such media");
    response.writeHead(200, { "content-length": String(body.length) }).end(body);
  });
  await new Promise<void>((resolve) => mediaServer.listen(0, "127.0.0.1", resolve));
  mediaBase = `http://127.0.0.1:${(mediaServer.address() as AddressInfo).port}`;

  // A port that was just free: nothing listens there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPortUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/gone.png`;
  await new Promise((resolve) => probe.close(resolve));
});
afterAll(async () => {
  mediaServer?.closeAllConnections();
  await new Promise((resolve) => mediaServer?.close(resolve));
  await rm(mediaDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------

interface RenderSetup {
  composition: unknown;
  format?: "portrait" | "landscape" | "square";
  credits?: number;
  balance?: number;
}

/** A workspace, a video with the composition, and a queued render of it, enqueued. */
async function startRender(setup: RenderSetup) {
  const { workspaceId } = await createFixture(service);
  const videoId = newId("video");
  await prisma().video.create({ data: { video_id: videoId, workspace_id: workspaceId, video_format: setup.format ?? "landscape", composition: setup.composition as object } });
  if (setup.balance) await prisma().$transaction((tx) => addCredits(tx, { workspaceId, amount: setup.balance!, actionType: "grant" }));
  const renderId = newId("render");
  const requestId = newId("request");
  const operation = await prisma().$transaction(async (tx) => {
    await tx.render.create({
      data: { render_id: renderId, workspace_id: workspaceId, video_id: videoId, video_format: setup.format ?? "landscape", render_status: "queued", credits_consumed: setup.credits ?? 0 },
    });
    return insertOperation(tx, renderOperation, { workspaceId, subjectId: renderId, input: {}, creditsHeld: setup.credits ?? 0, requestId, action: "renders.create" });
  });
  await runInRequestContext({ requestId, baseUrl: "" }, () => enqueueOperation(enqueue, renderOperation, operation));
  return { workspaceId, videoId, renderId, requestId, operationId: operation.operation_id };
}

const enqueue = ((job, payload, options) => service.service.jobs.enqueue(job, payload, options)) as Parameters<typeof enqueueOperation>[0];

/** Waits until the render is completed or failed. */
function finished(renderId: string, timeoutMs = 25_000) {
  const read = () => prisma().render.findUniqueOrThrow({ where: { render_id: renderId } });
  return waitForStatus(`render ${renderId}`, read, (render) => render.render_status, ["completed", "failed"], timeoutMs, 100);
}

async function renderEvents(workspaceId: string, renderId: string) {
  const events = await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type: { startsWith: "render." } }, orderBy: { seq: "asc" } });
  return events.filter((event) => (event.data as { object?: { render_id?: string } }).object?.render_id === renderId);
}

/** The /files handler of this service's storage and signing secret. */
async function filesHandler() {
  const files = await createFileService(prisma(), { ...loadConfig({}), ...overrides });
  return createFilesHandler(files.storage, files.signer.verify);
}

// ---------------------------------------------------------------------------------------------

describe("renders.render", () => {
  it("renders a 2 s landscape composition (text, image, tone, audio) to an MP4 served by its signed output_url", async () => {
    const composition = {
      duration: 2,
      fps: 24,
      background_color: "#102030",
      layers: [
        { type: "color", color: "#FF000040", start: 0, end: 0.5 },
        { type: "image", src: `${mediaBase}/pattern.png`, x: 100, y: 80, width: 640, height: 480, opacity: 0.9, start: 0.25, end: 1.75 },
        { type: "text", text: "Hello: 'world', [100%] {x}", font_size: 72, color: "white", box_color: "#00000080", y: 900 },
        { type: "tone", frequency: 440, volume: 0.3, start: 0.5, end: 1.5 },
        { type: "audio", src: `${mediaBase}/beep.mp3`, volume: 0.5, offset: 0.5, start: 1 },
      ],
    };
    const { workspaceId, renderId, requestId } = await startRender({ composition });
    const render = await finished(renderId);
    expect(render.error_message, render.error_message ?? "").toBeNull();
    expect(render).toMatchObject({ render_status: "completed", progress: 100, error_code: null, output_key: `renders/${workspaceId}/${renderId}.mp4` });
    expect(render.render_started_at).toBeInstanceOf(Date);
    expect(render.render_completed_at!.getTime()).toBeGreaterThanOrEqual(render.render_started_at!.getTime());
    expect(render.duration_seconds).toBeCloseTo(2, 1);
    expect(render.output_size_bytes).toBeGreaterThan(1000);
    expect(render.output_url).toMatch(new RegExp(`/files/renders/${workspaceId}/${renderId}\\.mp4\\?expires=\\d+&signature=[0-9a-f]{64}$`));

    // The output URL answers with the MP4, through the files handler.
    const response = await (await filesHandler())(new Request(render.output_url!));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("video/mp4");
    expect(response.headers.get("content-length")).toBe(String(render.output_size_bytes));
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(render.output_size_bytes);
    expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");

    // What ffprobe sees in the served file.
    const downloaded = path.join(mediaDir, `${renderId}.mp4`);
    await writeFile(downloaded, bytes);
    const probe = await probeMedia(downloaded);
    expect(Math.abs(probe.duration! - 2)).toBeLessThanOrEqual(0.1);
    const video = probe.streams.find((stream) => stream.codec_type === "video");
    const audio = probe.streams.find((stream) => stream.codec_type === "audio");
    expect(video).toMatchObject({ codec_name: "h264", width: 1920, height: 1080 });
    expect(audio).toMatchObject({ codec_name: "aac", channels: 2, sample_rate: 48000 });

    // render.started then render.completed, both with the request id that asked for the render.
    const events = await renderEvents(workspaceId, renderId);
    expect(events.map((event) => event.type)).toEqual(["render.started", "render.completed"]);
    expect(events.every((event) => event.request_id === requestId && event.livemode)).toBe(true);
    expect((events[0]!.data as { object: Record<string, unknown> }).object).toMatchObject({ object: "render", render_id: renderId, render_status: "rendering" });
    const completed = (events[1]!.data as { object: Record<string, unknown> }).object;
    expect(completed).toMatchObject({ object: "render", render_id: renderId, render_status: "completed", progress: 100, output_url: render.output_url });
    expect(completed).not.toHaveProperty("output_key");
    expect(completed).not.toHaveProperty("workspace_id");
  });

  it("renders portrait at 1080x1920 and square at 1080x1080", async () => {
    const composition = { duration: 1, fps: 10, layers: [{ type: "text", text: "format" }] };
    const [portrait, square] = await Promise.all([startRender({ composition, format: "portrait" }), startRender({ composition, format: "square" })]);
    const handler = await filesHandler();
    for (const [started, width, height] of [[portrait, 1080, 1920], [square, 1080, 1080]] as const) {
      const render = await finished(started.renderId);
      expect(render.render_status, render.error_message ?? "").toBe("completed");
      const file = path.join(mediaDir, `${started.renderId}.mp4`);
      await writeFile(file, Buffer.from(await (await handler(new Request(render.output_url!))).arrayBuffer()));
      const probe = await probeMedia(file);
      expect(probe.streams.find((stream) => stream.codec_type === "video")).toMatchObject({ width, height });
      // No audio layer: a silent track all the same.
      expect(probe.streams.some((stream) => stream.codec_type === "audio")).toBe(true);
      expect(Math.abs(probe.duration! - 1)).toBeLessThanOrEqual(0.1);
    }
  });

  it("fails with media_unreachable when an image cannot be fetched, and refunds the credits", async () => {
    const composition = { duration: 1, layers: [{ type: "image", src: closedPortUrl, width: 100, height: 100 }] };
    const { workspaceId, renderId } = await startRender({ composition, credits: 10, balance: 25 });
    const render = await finished(renderId);
    expect(render).toMatchObject({ render_status: "failed", error_code: "media_unreachable", output_url: null, output_key: null });
    expect(render.error_message).toMatch(/^composition\.layers\.0\.src: /);

    const events = await renderEvents(workspaceId, renderId);
    expect(events.map((event) => event.type)).toEqual(["render.started", "render.failed"]);
    expect(events[1]!.data).toMatchObject({ object: { render_id: renderId, render_status: "failed", error_code: "media_unreachable" }, credits_refunded: 10 });

    const workspace = await prisma().workspace.findUniqueOrThrow({ where: { workspace_id: workspaceId } });
    expect(workspace.credit_balance).toBe(35);
    const refunds = await prisma().creditTransaction.findMany({ where: { workspace_id: workspaceId, action_type: "refund" } });
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 10, balance_after: 35, reference_id: renderId });
  });

  it("fails with media_unreachable for a private address the guard refuses, and for a 404", async () => {
    const blocked = await startRender({ composition: { duration: 1, layers: [{ type: "audio", src: "https://10.0.0.1/sound.mp3" }] } });
    const missing = await startRender({ composition: { duration: 1, layers: [{ type: "image", src: `${mediaBase}/nope.png`, width: 10, height: 10 }] } });
    const blockedRender = await finished(blocked.renderId);
    expect(blockedRender).toMatchObject({ render_status: "failed", error_code: "media_unreachable" });
    expect(blockedRender.error_message).toMatch(/not a public address/);
    const missingRender = await finished(missing.renderId);
    expect(missingRender).toMatchObject({ render_status: "failed", error_code: "media_unreachable" });
    expect(missingRender.error_message).toMatch(/HTTP 404/);
    // Nothing was consumed, so nothing is refunded.
    expect(await prisma().creditTransaction.count({ where: { workspace_id: blocked.workspaceId, action_type: "refund" } })).toBe(0);
  });

  it("fails with media_too_large when a file passes the size cap", async () => {
    const { renderId } = await startRender({ composition: { duration: 1, layers: [{ type: "image", src: `${mediaBase}/huge.png`, width: 10, height: 10 }] }, credits: 10, balance: 5 });
    const render = await finished(renderId);
    expect(render).toMatchObject({ render_status: "failed", error_code: "media_too_large" });
    expect(render.error_message).toContain(`${MEDIA_MAX_BYTES} bytes`);
  });

  it("fails with invalid_composition, naming the path of the first issue", async () => {
    const { workspaceId, renderId } = await startRender({ composition: { duration: 1, layers: [{ type: "text" }, { type: "image", src: "ftp://x/y.png", width: 1, height: 1 }] }, credits: 10 });
    const render = await finished(renderId);
    expect(render).toMatchObject({ render_status: "failed", error_code: "invalid_composition" });
    expect(render.error_message).toMatch(/composition\.layers\.0\.text/);
    expect((await renderEvents(workspaceId, renderId)).map((event) => event.type)).toEqual(["render.started", "render.failed"]);
    expect(await prisma().creditTransaction.findFirst({ where: { workspace_id: workspaceId, action_type: "refund", reference_id: renderId } })).toMatchObject({ amount: 10 });

    const empty = await startRender({ composition: null });
    expect(await finished(empty.renderId)).toMatchObject({ render_status: "failed", error_code: "invalid_composition", error_message: expect.stringMatching(/no composition/) });
  });

  it("leaves a render that is not queued alone (a duplicate job is a no-op)", async () => {
    const { workspaceId, renderId, operationId } = await startRender({ composition: { duration: 1, fps: 10, layers: [] } });
    expect((await finished(renderId)).render_status).toBe("completed");
    const before = await prisma().render.findUniqueOrThrow({ where: { render_id: renderId } });
    // The same operation queued again, as a lost-job recovery might: its claim finds it completed.
    const operation = await prisma().operation.findUniqueOrThrow({ where: { operation_id: operationId } });
    const job = (await enqueueOperation(enqueue, renderOperation, { ...operation, attempts: operation.attempts + 5 })) as { getState(): Promise<string> };
    // Operation jobs are forgotten once done (so a lost attempt can be queued again): wait until it is.
    await waitFor("the job to finish", async () => ["completed", "failed", "unknown"].includes(await job.getState()), 10_000);
    expect(await job.getState()).not.toBe("failed");
    expect(await prisma().render.findUniqueOrThrow({ where: { render_id: renderId } })).toEqual(before);
    expect((await renderEvents(workspaceId, renderId)).map((event) => event.type)).toEqual(["render.started", "render.completed"]);
    expect(await prisma().operation.findUniqueOrThrow({ where: { operation_id: operationId } })).toMatchObject({ status: "completed", attempts: 1 });
  });
});

describe("composition and command", () => {
  it("rejects an invalid composition with 422 issues under composition.", () => {
    let error: unknown;
    try {
      parseComposition({ duration: 700, layers: [{ type: "image", src: "notaurl", width: 1, height: 1 }, { type: "sparkle" }] });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    const paths = ((error as ApiError).details!.issues as { path: string }[]).map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(["composition.duration", "composition.layers.0.src", "composition.layers.1.type"]));
  });

  it("checks each layer's timing against the duration", () => {
    const issueOf = (layers: unknown[]) => {
      try {
        parseComposition({ duration: 2, layers });
        return undefined;
      } catch (error) {
        return ((error as ApiError).details!.issues as { path: string; type: string }[])[0];
      }
    };
    expect(issueOf([{ type: "tone", start: 1, end: 2 }])).toBeUndefined();
    expect(issueOf([{ type: "tone", start: 2 }])).toMatchObject({ path: "composition.layers.0.start" });
    expect(issueOf([{ type: "tone", end: 3 }])).toMatchObject({ path: "composition.layers.0.end", type: "number.max" });
    expect(issueOf([{ type: "tone", start: 1, end: 0.5 }])).toMatchObject({ path: "composition.layers.0.end", type: "number.min" });
  });

  it("sums the sound layers at their own levels (no averaging) and gives a silent track when there is none", async () => {
    const workDir = await mkdtemp(path.join(mediaDir, "mix-"));
    const render = async (name: string, composition: unknown) => {
      const outputPath = path.join(workDir, `${name}.mp4`);
      const command = await buildRenderCommand({ composition: parseComposition(composition), formatSize: { width: 320, height: 180 }, output: DEFAULT_OUTPUT, media: new Map(), workDir, outputPath });
      await run(FFMPEG_PATH, command.args, { cwd: workDir });
      return outputPath;
    };
    /** Peak level of the sound between two seconds, in dBFS. */
    const peak = async (file: string, from: number, to: number) => {
      const { stderr } = await run(FFMPEG_PATH, ["-hide_banner", "-nostats", "-i", file, "-af", `atrim=${from}:${to},astats=metadata=0`, "-f", "null", "-"]);
      const level = /Overall[\s\S]*?Peak level dB:\s*(-?[\d.]+|-inf)/.exec(stderr)?.[1];
      return level === "-inf" ? Number.NEGATIVE_INFINITY : Number(level ?? Number.NaN);
    };
    // Two equal tones in phase between 1 and 2 s: their sum peaks 6 dB above one alone.
    const mixed = await render("two", { duration: 3, layers: [{ type: "tone", volume: 0.25 }, { type: "tone", volume: 0.25, start: 1, end: 2 }] });
    const one = await peak(mixed, 0.2, 0.8);
    const both = await peak(mixed, 1.2, 1.8);
    expect(one).toBeCloseTo(-12, 0);
    expect(both - one).toBeGreaterThan(5);
    expect(both - one).toBeLessThan(7);
    const silent = await render("silent", { duration: 1 });
    expect((await probeMedia(silent)).streams.map((stream) => stream.codec_type).sort()).toEqual(["audio", "video"]);
    expect(await peak(silent, 0, 1)).toBe(Number.NEGATIVE_INFINITY);
  });

  it("encodes a lone audio layer that starts late and is padded to the end", async () => {
    const workDir = await mkdtemp(path.join(mediaDir, "late-tone-"));
    const command = await buildRenderCommand({
      composition: parseComposition({ duration: 6, layers: [{ type: "tone", frequency: 440, volume: 0.3, start: 0.5, end: 5.5 }] }),
      formatSize: { width: 320, height: 180 },
      output: DEFAULT_OUTPUT,
      media: new Map(),
      workDir,
      outputPath: path.join(workDir, "out.mp4"),
    });
    await run(FFMPEG_PATH, command.args, { cwd: workDir });
    const probed = await probeMedia(path.join(workDir, "out.mp4"));
    expect(probed.streams.map((stream) => stream.codec_type).sort()).toEqual(["audio", "video"]);
    expect(probed.duration).toBeCloseTo(6, 1);
  });

  it("escapes file paths for the filtergraph: drawtext reads files in a directory named with : ' , [ ] ; \\", async () => {
    const dir = path.join(mediaDir, "we:ird 'di,r[x];y\\z");
    await mkdir(dir, { recursive: true });
    await copyFile(FONT_PATH, path.join(dir, "font.ttf"));
    await writeFile(path.join(dir, "text.txt"), "escaped");
    const drawtext = `drawtext=fontfile=${escapeFilterValue(path.join(dir, "font.ttf"))}:textfile=${escapeFilterValue(path.join(dir, "text.txt"))}`;
    await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=s=64x64:d=0.1", "-vf", drawtext, path.join(dir, "out.mp4")]);
    expect((await probeMedia(path.join(dir, "out.mp4"))).streams[0]).toMatchObject({ width: 64, height: 64 });
  });
});
