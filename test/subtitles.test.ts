// subtitles.generate (src/subtitles/) end to end, and journey 1 of issue 16: videos.create →
// subtitles.generate → renders.create ends in an MP4 with burned-in subtitles. Real PostgreSQL,
// Redis, BullMQ render worker and ffmpeg; the transcription provider is the OpenAI adapter against
// the stand-in (word timestamps spread over the recording's real length). Media are served on
// loopback, allow-listed for the URL guard. This file runs workers, so it has a database and a
// Redis of its own (see jobs.test.ts for why).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FFMPEG_PATH } from "../src/media/binaries.js";
import { probeMedia } from "../src/media/probe.js";
import { balanceOf, funded } from "./support/action-calls.js";
import { isolatedEnvironment, useService, useStandIn, type ApiResponse, type Client } from "./support/service.js";
import { waitForStatus } from "./support/wait.js";

const run = promisify(execFile);
const environment = isolatedEnvironment("subtitles", { runWorkers: true, outboundAllow: ["127.0.0.1"], renderPreset: "ultrafast", dispatchIntervalMs: 60_000 });
const overrides = environment.overrides;
const providers = useStandIn(overrides);
const service = useService(overrides);
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;

const TRANSCRIPT = "Hello brave world. Subtitles arrive in 2026 for everyone";

let mediaServer: Server;
let mediaBase = "";
let mediaDir = "";
beforeAll(async () => {
  mediaDir = await mkdtemp(path.join(os.tmpdir(), "cutroom-subtitles-media-"));
  const wav = path.join(mediaDir, "speech.wav");
  await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=220:duration=3", "-ac", "1", "-ar", "16000", wav]);
  const served = new Map<string, { body: Buffer; type: string }>([
    ["/speech.wav", { body: await readFile(wav), type: "audio/wav" }],
    ["/page.html", { body: Buffer.from("<html><body>not media</body></html>"), type: "text/html" }],
  ]);
  mediaServer = createServer((request, response) => {
    const file = served.get(request.url ?? "");
    if (!file) return void response.writeHead(404).end("no such media");
    response.writeHead(200, { "content-type": file.type, "content-length": String(file.body.length) }).end(file.body);
  });
  await new Promise<void>((resolve) => mediaServer.listen(0, "127.0.0.1", resolve));
  mediaBase = `http://127.0.0.1:${(mediaServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  mediaServer?.closeAllConnections();
  await new Promise((resolve) => mediaServer?.close(resolve));
  await rm(mediaDir, { recursive: true, force: true });
});

const callAction = (client: Client, name: string, body: unknown = {}) => client.post(`/api/v1/actions/${name}`, body);

function expectOk(response: ApiResponse, status = 200): Row {
  expect(response.status, response.text).toBe(status);
  return response.body as Row;
}

function expectError(response: ApiResponse, status: number, code: string): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body?.error?.code, response.text).toBe(code);
  return response.body.error as Row;
}

const transcriptions = () => providers.standIn.calls("openai.audio.transcriptions").length;

/** A frame at `seconds`, its bottom 380 rows as 8-bit gray: how many pixels are bright. */
async function brightPixelsAtBottom(file: string, seconds: number): Promise<number> {
  const { stdout } = await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-ss", String(seconds), "-i", file, "-frames:v", "1", "-vf", "crop=1920:380:0:700", "-f", "rawvideo", "-pix_fmt", "gray", "-"], { encoding: "buffer", maxBuffer: 8 << 20 });
  const pixels = stdout as unknown as Buffer;
  let bright = 0;
  for (const value of pixels) if (value > 160) bright++;
  return bright;
}

describe("journey 1: videos.create → subtitles.generate → renders.create", () => {
  it("transcribes the voice-over, writes the track and layer, and the render burns the subtitles in", async () => {
    const { client, workspaceId } = await funded(service, 50);
    const video = expectOk(await client.post("/api/v1/videos", {
      video_name: "Journey 1",
      video_format: "landscape",
      composition: { duration: 4, fps: 10, background_color: "#203040", layers: [{ type: "audio", src: `${mediaBase}/speech.wav` }] },
    }), 201);

    providers.standIn.answerNext("openai.audio.transcriptions", TRANSCRIPT);
    const before = transcriptions();
    const subtitles = expectOk(await callAction(client, "subtitles.generate", { video_id: video.video_id, media_url: `${mediaBase}/speech.wav`, words_per_group: 3 }));
    expect(transcriptions()).toBe(before + 1);
    expect(subtitles).toMatchObject({
      object: "subtitles", video_id: video.video_id, restyled: false, text: TRANSCRIPT, word_count: 9, words_per_group: 3,
      style_preset: "bold", layer_index: 1, composition_duration: 4, diarization: false,
      credits: { cost: 3, charged: 3 },
    });
    // The groups follow the transcription's word times (9 words over the 3 s recording), 3 words each.
    const groups = subtitles.groups as Row[];
    expect(groups.map((group) => group.words.map((word: Row) => word.word).join(" "))).toEqual(["Hello brave world", "Subtitles arrive in", "2026 for everyone"]);
    expect(groups[1]).toMatchObject({ start: 1, end: 2 });
    expect(groups[1]!.words.map((word: Row) => [word.start, word.end])).toEqual([[1, 1.33], [1.33, 1.67], [1.67, 2]]);
    // One emphasised word per group: the longest word, or a number.
    expect(groups.map((group) => group.words.filter((word: Row) => word.emphasis).map((word: Row) => word.word))).toEqual([["Hello"], ["Subtitles"], ["2026"]]);
    expect(await balanceOf(service, workspaceId)).toBe(47);

    // The video now holds the track and the layer, in the timeline model's shapes.
    const stored = expectOk(await client.get(`/api/v1/videos/${video.video_id}`));
    expect(stored.video_captions).toMatchObject({ source_url: `${mediaBase}/speech.wav`, words_per_group: 3, style_preset: "bold", text: TRANSCRIPT });
    expect(stored.video_captions.words).toHaveLength(9);
    expect(stored.composition.layers.map((layer: Row) => layer.type)).toEqual(["audio", "subtitles"]);
    expect(stored.composition.layers[1].groups).toEqual(groups);

    // renders.create draws it: an MP4 of 4 s with one H.264 and one AAC stream.
    const render = expectOk(await callAction(client, "renders.create", { video_id: video.video_id }));
    const read = () => prisma().render.findUniqueOrThrow({ where: { render_id: render.render_id } });
    const finished = await waitForStatus("the render", read, (row) => row.render_status, ["completed", "failed"], 25_000, 150);
    expect(finished.error_message).toBeNull();
    const listed = expectOk(await client.get(`/api/v1/actions/renders.list?video_id=${video.video_id}`));
    const response = await fetch((listed.data as Row[])[0]!.output_url);
    expect(response.status).toBe(200);
    const file = path.join(mediaDir, `${render.render_id}.mp4`);
    await writeFile(file, Buffer.from(await response.arrayBuffer()));
    const probe = await probeMedia(file);
    expect(Math.abs(probe.duration! - 4)).toBeLessThanOrEqual(0.15);
    expect(probe.streams.filter((stream) => stream.codec_type === "video")).toEqual([expect.objectContaining({ codec_name: "h264", width: 1920, height: 1080 })]);
    expect(probe.streams.filter((stream) => stream.codec_type === "audio")).toEqual([expect.objectContaining({ codec_name: "aac" })]);

    // Burned in: at 1.5 s ("Subtitles arrive in") the bottom of the frame has bright letters; at
    // 3.5 s, after the last word, it is the plain background.
    const withSubtitles = await brightPixelsAtBottom(file, 1.5);
    const without = await brightPixelsAtBottom(file, 3.5);
    expect(without).toBe(0);
    expect(withSubtitles).toBeGreaterThan(2000);
  });
});

describe("subtitles.generate", () => {
  it("restyle_only regroups the stored words without transcribing, and gives the hold back", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const video = expectOk(await client.post("/api/v1/videos", { video_name: "Restyle", video_format: "portrait" }), 201);
    providers.standIn.answerNext("openai.audio.transcriptions", TRANSCRIPT);
    const first = expectOk(await callAction(client, "subtitles.generate", { video_id: video.video_id, media_url: `${mediaBase}/speech.wav` }));
    // A video without a composition gets one as long as the media, playing it under the subtitles.
    expect(first).toMatchObject({ layer_index: 1, composition_duration: 3, words_per_group: 3 });
    expect(await balanceOf(service, workspaceId)).toBe(7);

    const before = transcriptions();
    const restyled = expectOk(await callAction(client, "subtitles.generate", { video_id: video.video_id, restyle_only: true, words_per_group: 1, style_preset: "karaoke", enable_emphasis: false }));
    expect(transcriptions()).toBe(before);
    expect(restyled).toMatchObject({ restyled: true, word_count: 9, words_per_group: 1, style_preset: "karaoke", style: { highlight_current_word: true }, credits: { charged: 0 } });
    expect((restyled.groups as Row[]).map((group) => group.words.length)).toEqual(Array(9).fill(1));
    expect((restyled.groups as Row[]).flatMap((group) => group.words).filter((word: Row) => word.emphasis)).toEqual([]);
    // The same word times as the transcription: nothing was estimated again.
    expect((restyled.groups as Row[]).map((group) => group.start)).toEqual((first.groups as Row[]).flatMap((group) => group.words.map((word: Row) => word.start)));
    expect(await balanceOf(service, workspaceId)).toBe(7);
    const stored = expectOk(await client.get(`/api/v1/videos/${video.video_id}`));
    expect(stored.composition.layers.map((layer: Row) => layer.type)).toEqual(["audio", "subtitles"]);
    expect(stored.composition.layers[1].style).toMatchObject({ highlight_current_word: true });
  });

  it("refuses what it cannot use, before any credit is held or provider called", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const video = expectOk(await client.post("/api/v1/videos", { video_name: "Refusals" }), 201);
    const before = transcriptions();
    const restyle = expectError(await callAction(client, "subtitles.generate", { video_id: video.video_id, restyle_only: true }), 422, "validation_failed");
    expect(restyle.details.issues[0]).toMatchObject({ path: "restyle_only" });
    const noMedia = expectError(await callAction(client, "subtitles.generate", { video_id: video.video_id }), 422, "validation_failed");
    expect(noMedia.details.issues[0]).toMatchObject({ path: "media_url", type: "any.required" });
    const preset = expectError(await callAction(client, "subtitles.generate", { video_id: video.video_id, media_url: `${mediaBase}/speech.wav`, style_preset: "karaoki" }), 422, "validation_failed");
    expect(preset.details.issues[0]).toMatchObject({ path: "style_preset", did_you_mean: "karaoke" });
    // Not media: the hold is given back.
    const page = expectError(await callAction(client, "subtitles.generate", { video_id: video.video_id, media_url: `${mediaBase}/page.html` }), 422, "validation_failed");
    expect(page.details.issues[0]).toMatchObject({ path: "media_url" });
    expect(transcriptions()).toBe(before);
    expect(await balanceOf(service, workspaceId)).toBe(10);
  });

  it("a test key gets a quote: nothing fetched, transcribed, held or written", async () => {
    const owner = await funded(service, 10);
    const video = expectOk(await owner.client.post("/api/v1/videos", { video_name: "Quote" }), 201);
    const test = await owner.newKey({ mode: "test" });
    const before = transcriptions();
    const quote = expectOk(await callAction(test.client, "subtitles.generate", { video_id: video.video_id, media_url: `${mediaBase}/speech.wav` }));
    expect(quote).toMatchObject({ object: "action_quote", livemode: false, credits: { cost: 3, charged: 0 }, capabilities: ["transcription"] });
    expect(transcriptions()).toBe(before);
    const stored = await prisma().video.findUniqueOrThrow({ where: { video_id: video.video_id } });
    expect(stored.video_captions).toBeNull();
    expect(await balanceOf(service, owner.workspaceId)).toBe(10);
  });
});
