// Faceless videos (docs/faceless.md) against the provider stand-in, with real workers: the
// done-when journey — generate_story → parse_script → generate_audio (espeak-ng, offline) →
// generate_video (the video model's clip) → renders.create → an MP4 ffprobe accepts, as long as
// the voice-overs together, with video and audio — and the smaller actions around it: outline,
// analyze_url through the URL guard, detect_characters, check_status, credits settled to what ran,
// and test keys (quotes or simulations: no row, no credit, no provider call).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { probeMedia } from "../src/media/probe.js";
import { FFMPEG_PATH } from "../src/media/binaries.js";
import { facelessComposition } from "../src/faceless/composition.js";
import { TRANSITION_SECONDS } from "../src/scenes/index.js";
import { withSubtitles } from "../src/subtitles/apply.js";
import { compositionShape, subtitleStyle } from "../src/video-model/index.js";
import type { Config } from "../src/config.js";
import { createFixture, isolatedEnvironment, useService, useStandIn, type Client } from "./support/service.js";
import { balanceOf, funded, ok, refused, renderEnded } from "./support/action-calls.js";
import { waitForStatus } from "./support/wait.js";
import { meanDifference } from "./support/frames.js";

// A default configuration (no outbound allow-list): the render reads the scenes' media from storage.
const environment = isolatedEnvironment("faceless", { runWorkers: true, renderPreset: "ultrafast", dispatchIntervalMs: 60_000 });
const overrides: Partial<Config> = environment.overrides;
const providers = useStandIn(overrides, { CUTROOM_SPEECH_MODEL: "local/espeak-ng" });
const service = useService(overrides);
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;
const run = promisify(execFile);

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/${name}`, input);

/** Polls faceless.check_status until the task ends. */
function finished(client: Client, taskId: string): Promise<Row> {
  const read = async () => ok(await call(client, "faceless.check_status", { task_id: taskId }));
  return waitForStatus(`task ${taskId}`, read, (status) => status.task.status as string, ["completed", "failed", "canceled"], 60_000, 200);
}

async function probeUrl(url: string, name: string) {
  const file = path.join(os.tmpdir(), `${name}-${Date.now()}.mp4`);
  await writeFile(file, new Uint8Array(await (await fetch(url)).arrayBuffer()));
  return { ...(await probeMedia(file)), file };
}

/** The left quarter of one frame of an MP4 (clear of the centred subtitles), as small grey pixels. */
async function frameAt(file: string, seconds: number): Promise<Buffer> {
  const { stdout } = await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-ss", seconds.toFixed(3), "-i", file, "-frames:v", "1", "-vf", "crop=iw/4:ih:0:0,scale=16:36", "-f", "rawvideo", "-pix_fmt", "gray", "-"], { encoding: "buffer", maxBuffer: 1 << 20 });
  return stdout;
}

describe("a faceless video, story to MP4", () => {
  it("writes the story, splits it, voices every scene, films one, and renders an MP4 as long as the voice-overs", async () => {
    const { client, workspaceId } = await funded(service, 200);
    providers.standIn.answerNext("openai.chat", {
      title: "Tides",
      logline: "Why the sea breathes twice a day.",
      paragraphs: ["The sea rises.", "The moon pulls it."],
    });
    const story = ok(await call(client, "faceless.generate_story", { prompt: "Why the sea has tides", target_duration: 15 }));
    expect(story).toMatchObject({ object: "faceless_story", title: "Tides", language: "en", target_duration: 15, credits: { charged: 2 } });
    expect(story.script.split("\n\n")).toHaveLength(2);

    const parsed = ok(await call(client, "faceless.parse_script", { script: story.script }));
    expect(parsed).toMatchObject({ object: "faceless_scenes", created: true, faceless_status: "draft", runtime_ms: 6_000, credits: { charged: 1 } });
    expect(parsed.scenes.map((scene: Row) => [scene.name, scene.text, scene.status])).toEqual([
      ["Scene 1", "The sea rises.", "pending"],
      ["Scene 2", "The moon pulls it.", "pending"],
    ]);
    const videoId = parsed.video_id as string;

    const before = await balanceOf(service, workspaceId);
    const audio = ok(await call(client, "faceless.generate_audio", { video_id: videoId }));
    expect(audio).toMatchObject({ object: "faceless_task", kind: "faceless_audio", status: "queued", credits: { cost: 4, charged: 4, held: true } });
    const voiced = await finished(client, audio.task_id);
    expect(voiced.task).toMatchObject({ status: "completed", credits_spent: 4 });
    expect(await balanceOf(service, workspaceId)).toBe(before - 4);
    expect(voiced.scenes.every((scene: Row) => scene.status === "voiced" && scene.audio_url)).toBe(true);
    const stranger = await createFixture(service);
    refused(await call(stranger.client, "faceless.check_status", { task_id: audio.task_id }), 403, "workspace_mismatch");

    const scene = parsed.scenes[1].scene_id as string;
    const visual = ok(await call(client, "faceless.generate_video", { video_id: videoId, scene_id: scene, prompt: "The moon over a dark sea" }));
    expect(visual).toMatchObject({ kind: "faceless_visual", scene_id: scene, prompt: "The moon over a dark sea", credits: { charged: 20, held: true } });
    const drawn = await finished(client, visual.task_id);
    expect(drawn.task.status, JSON.stringify(drawn.task)).toBe("completed");
    expect(drawn.scenes.map((item: Row) => item.status)).toEqual(["voiced", "ready"]);
    expect(providers.standIn.calls("fal.submit")).toHaveLength(1);
    // The operations' writes are changes of the video: each one reported as video.updated, the
    // last carrying the scenes as they stand now.
    const updates = await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type: "video.updated" }, orderBy: { seq: "asc" } });
    const ofVideo = updates.filter((event) => (event.data as Row).object.video_id === videoId);
    expect(ofVideo.length).toBeGreaterThanOrEqual(4);
    expect(((ofVideo.at(-1)!.data as Row).object.faceless_scenes as Row[]).map((item) => item.status)).toEqual(["voiced", "ready"]);

    // Each scene lasts its voice-over, measured on the stored file.
    const row = await prisma().video.findUniqueOrThrow({ where: { video_id: videoId } });
    const scenes = row.faceless_scenes as Row[];
    const total = scenes.reduce((sum, item) => sum + item.audio.duration_ms, 0);
    expect(drawn.runtime_ms).toBe(total);
    expect(scenes[1]!.visual).toMatchObject({ kind: "video", content_type: "video/mp4", poster: { content_type: "image/png" } });
    const layers = (row.composition as Row).layers as Row[];
    // Built by the scene builder (src/scenes): the pictures (the clip itself, not its poster,
    // dissolving in over the colour of the undrawn scene, played once), the voice-overs, and the
    // narration as subtitles of timed words, a layer per scene.
    expect(layers.map((layer) => layer.type)).toEqual(["color", "video", "audio", "audio", "subtitles", "subtitles"]);
    const clipStart = scenes[0]!.audio.duration_ms / 1000;
    expect(layers[1]).toMatchObject({ start: clipStart, loop: false, transition_in: { type: "dissolve" } });
    expect(layers[1]!.end).toBeCloseTo(total / 1000, 3);
    expect(layers[0]!.transition_out).toEqual(layers[1]!.transition_in);
    expect(layers.filter((layer) => layer.type === "audio").map((layer) => layer.role)).toEqual(["voice", "voice"]);
    const words = layers.filter((layer) => layer.type === "subtitles").flatMap((layer) => (layer.words as Row[]).map((word) => word.word));
    expect(words.join(" ")).toBe(scenes.map((item) => item.text).join(" ").replace(/\s+/g, " "));

    const render = ok(await call(client, "renders.create", { video_id: videoId }));
    const done = await renderEnded(client, videoId, render.render_id);
    expect(done.render_status, JSON.stringify(done)).toBe("completed");
    const probe = await probeUrl(done.output_url, "faceless");
    expect(probe.streams.some((stream) => stream.codec_type === "video")).toBe(true);
    expect(probe.streams.some((stream) => stream.codec_type === "audio")).toBe(true);
    expect(Math.abs(probe.duration! - total / 1000)).toBeLessThanOrEqual(0.2);
    // The clip moves: two frames of its scene differ beside the subtitles (its first frame alone would not).
    const clipLength = Math.min(total / 1000 - clipStart, 5);
    const early = await frameAt(probe.file, clipStart + 0.1);
    const later = await frameAt(probe.file, clipStart + clipLength - 0.2);
    expect(meanDifference(early, later)).toBeGreaterThan(2);
  }, 90_000);
});

describe("the faceless composition", () => {
  const media = (key: string, content_type: string) => ({ key, url: `https://files.example.com/${key}`, content_type });
  const scene = (index: number, visual: "video" | "image" | null): Row => ({
    scene_id: `fsc_${index}`, index, name: `Scene ${index + 1}`, text: `Words of scene ${index + 1}.`, visual_prompt: "", status: "ready",
    audio: { ...media(`a${index}.mp3`, "audio/mpeg"), duration_ms: 2000, model: "local/espeak-ng", voice: null },
    visual: visual && { ...media(visual === "video" ? `v${index}.mp4` : `i${index}.png`, visual === "video" ? "video/mp4" : "image/png"), kind: visual, model: "m", prompt: "p", poster: media(`p${index}.png`, "image/png"), duration_ms: visual === "video" ? 5000 : null },
  });

  it("is the scene builder's: each visual dissolves into the next (colour too), stills move (Ken Burns), a clip plays once, voices are voices, and every scene is subtitled", () => {
    const composition = facelessComposition([scene(0, "video"), scene(1, "image"), scene(2, null), scene(3, "image")] as never, "portrait", (key) => `https://files.example.com/${key}`)!;
    expect(composition).toMatchObject({ version: 2, duration: 8 });
    const layers = composition.layers as Row[];
    const visuals = layers.filter((layer) => layer.type !== "audio" && layer.type !== "subtitles");
    const fade = TRANSITION_SECONDS;
    expect(visuals.map((layer) => [layer.type, layer.start, layer.end, layer.transition_in?.duration ?? 0, layer.transition_out?.duration ?? 0])).toEqual([
      ["video", 0, 2 + fade, 0, fade],
      ["image", 2, 4 + fade, fade, fade],
      ["color", 4, 6 + fade, fade, fade],
      ["image", 6, 8, fade, 0],
    ]);
    expect(visuals[0]).toMatchObject({ src: "https://files.example.com/v0.mp4", loop: false, fit: "cover" });
    expect(visuals[1]!.motion).toMatchObject({ type: "zoom_out" });
    expect(visuals[3]!.motion).toMatchObject({ type: expect.any(String) });
    expect(layers.filter((layer) => layer.type === "audio").map((layer) => [layer.src, layer.start, layer.end, layer.role])).toEqual([0, 1, 2, 3].map((index) => [`https://files.example.com/a${index}.mp3`, index * 2, index * 2 + 2, "voice"]));
    // The words of each scene spread evenly over it (the scene text has no word timings).
    const subtitles = layers.filter((layer) => layer.type === "subtitles");
    expect(subtitles.map((layer) => [layer.start, layer.end, layer.words.length, layer.style.preset])).toEqual([0, 1, 2, 3].map((index) => [index * 2, index * 2 + 2, 4, "plain"]));
    expect(subtitles[1]!.words).toEqual([
      { word: "Words", start: 2, end: 2.5 },
      { word: "of", start: 2.5, end: 3 },
      { word: "scene", start: 3, end: 3.5 },
      { word: "2.", start: 3.5, end: 4 },
    ]);
  });

  it("a subtitle track written onto it (subtitles.generate) replaces every scene's captions", () => {
    const composition = facelessComposition([scene(0, "image"), scene(1, "image")] as never, "landscape", (key) => `https://files.example.com/${key}`)!;
    expect((composition.layers as Row[]).filter((layer) => layer.type === "subtitles")).toHaveLength(2);
    const group = { start: 0, end: 4, words: [{ word: "Transcribed", start: 0, end: 4, emphasis: false }] };
    const { composition: written, layerIndex } = withSubtitles(compositionShape.parse(composition), undefined, [group], subtitleStyle.parse({}));
    const captions = written.layers.filter((layer) => layer.type === "subtitles");
    expect(captions).toHaveLength(1);
    expect(written.layers[layerIndex]).toBe(captions[0]);
    expect(written.layers.filter((layer) => layer.type !== "subtitles")).toHaveLength((composition.layers as Row[]).length - 2);
  });
});

describe("faceless actions around the journey", () => {
  it("outlines acts and scenes, and reads a page into a brief through the URL guard", async () => {
    const { client } = await funded(service, 200);
    providers.standIn.answerNext("openai.chat", { title: "Bees", acts: [{ title: "Scouts", scenes: [{ title: "Out", summary: "Scouts leave.", visual: "Bees in flight" }, { title: "Back", summary: "They dance.", visual: "A waggle dance" }] }] });
    const outline = ok(await call(client, "faceless.generate_outline", { prompt: "How bees choose a home" }));
    expect(outline).toMatchObject({ object: "faceless_outline", title: "Bees", scene_count: 2, credits: { charged: 1 } });
    expect(outline.acts[0].scenes.map((item: Row) => item.index)).toEqual([0, 1]);

    const reads = providers.standIn.calls("web").length;
    const brief = ok(await call(client, "faceless.analyze_url", { url: `${providers.standIn.url}/web/article` }));
    expect(brief).toMatchObject({ object: "faceless_brief", credits: { charged: 2 } });
    expect(brief.characters_read).toBeGreaterThan(100);
    expect(providers.standIn.calls("web").length).toBe(reads + 1);
    // A page the guard refuses is the caller's error, not ours: 400 and nothing kept.
    refused(await call(client, "faceless.analyze_url", { url: "http://10.0.0.1/private" }), 400, "invalid_request");
  });

  it("detects characters of a video's script and stores them on the video", async () => {
    const { client } = await funded(service, 200);
    const parsed = ok(await call(client, "faceless.parse_script", { script: "Mara rows out at dawn.\n\n[a pier in fog]\nTomas waits on the pier." }));
    expect(parsed.scenes[1].visual_prompt).toBe("a pier in fog");
    providers.standIn.answerNext("openai.chat", { characters: [{ name: "Mara", description: "A fisher", appearance_prompt: "a woman in a yellow oilskin" }] });
    const found = ok(await call(client, "faceless.detect_characters", { video_id: parsed.video_id }));
    expect(found).toMatchObject({ object: "faceless_characters", video_id: parsed.video_id, characters: [{ name: "Mara" }] });
    const video = ok(await client.get(`/api/v1/videos/${parsed.video_id}`));
    expect(video.faceless_detected_characters).toEqual(found.characters);
  });

  it("refuses what cannot run before anything is spent", async () => {
    const { client, workspaceId } = await funded(service, 50);
    const parsed = ok(await call(client, "faceless.parse_script", { script: "One scene." }));
    const balance = await balanceOf(service, workspaceId);
    refused(await call(client, "faceless.generate_video", { video_id: parsed.video_id, scene_id: "fsc_missing" }), 404, "not_found");
    refused(await call(client, "faceless.generate_audio", { video_id: parsed.video_id, scene_id: "fsc_missing" }), 404, "not_found");
    refused(await call(client, "faceless.check_status", { task_id: "op_missing" }), 404, "not_found");
    const bare = (await client.post("/api/v1/videos", { video_name: "No scenes" })).body as Row;
    refused(await call(client, "faceless.generate_audio", { video_id: bare.video_id }), 400, "invalid_request");
    const empty = refused(await call(client, "faceless.parse_script", { script: "# Title only" }), 422, "validation_failed");
    expect(empty.details.issues[0].path).toBe("script");
    refused(await call(client, "faceless.check_status", {}), 422, "validation_failed");
    expect(await balanceOf(service, workspaceId)).toBe(balance);
  });

  it("a clip the video model refuses fails the task and gives the credits back", async () => {
    const { client, workspaceId } = await funded(service, 50);
    const parsed = ok(await call(client, "faceless.parse_script", { script: "A stormy sea." }));
    const balance = await balanceOf(service, workspaceId);
    providers.standIn.failNext("fal.submit", { status: 422 });
    const task = ok(await call(client, "faceless.generate_video", { video_id: parsed.video_id, scene_id: parsed.scenes[0].scene_id }));
    expect(await balanceOf(service, workspaceId)).toBe(balance - 20);
    const failed = await finished(client, task.task_id);
    expect(failed.task).toMatchObject({ status: "failed", error_code: "upstream_error", credits_spent: 0 });
    expect(failed.faceless_status).toBe("failed");
    expect(failed.scenes[0].status).toBe("pending");
    expect(await balanceOf(service, workspaceId)).toBe(balance);
  });

  it("with a test key quotes or simulates: no row, no credit, no provider call", async () => {
    const fixture = await funded(service, 50);
    const parsed = ok(await call(fixture.client, "faceless.parse_script", { script: "A.\n\nB." }));
    const test = await fixture.newKey({ mode: "test" });
    const balance = await balanceOf(service, fixture.workspaceId);
    const calls = providers.standIn.calls().length;
    const operations = await prisma().operation.count({ where: { workspace_id: fixture.workspaceId } });
    const quote = ok(await call(test.client, "faceless.generate_story", { prompt: "Tides" }));
    expect(quote).toMatchObject({ object: "action_quote", action: "faceless.generate_story", credits: { cost: 2, charged: 0 } });
    const simulated = ok(await call(test.client, "faceless.generate_audio", { video_id: parsed.video_id }));
    expect(simulated).toMatchObject({ livemode: false, scene_ids: parsed.scenes.map((scene: Row) => scene.scene_id), credits: { cost: 4, charged: 0 } });
    ok(await call(test.client, "faceless.parse_script", { script: "Not kept." }));
    expect(await prisma().operation.count({ where: { workspace_id: fixture.workspaceId } })).toBe(operations);
    expect(await prisma().video.count({ where: { workspace_id: fixture.workspaceId } })).toBe(1);
    expect(await balanceOf(service, fixture.workspaceId)).toBe(balance);
    expect(providers.standIn.calls().length).toBe(calls);
  });
});
