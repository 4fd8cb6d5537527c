// scripts.to_video makes a finished video (docs/scripts.md, "Hand-over"), offline with
// local/espeak-ng and the background shelf: the scene plan (a paragraph's own picture first, else
// a shelf background by its words, varied, with why), word-timed karaoke captions, Ken Burns,
// dissolves, the title card; options and their 422s; a test key's quote; re-handover in place
// (same video, video.updated, only the changed scene); and, rendered and looked at, a caption of a
// 200-character paragraph staying inside the safe area and a music bed ducked under the voice.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../src/ids.js";
import { isolatedEnvironment, useService, type Client } from "./support/service.js";
import { funded, ok, refused, renderEnded } from "./support/action-calls.js";
import { bandLevel } from "./support/frames.js";
import { wavFromPcm } from "../src/providers/media-info.js";

const environment = isolatedEnvironment("scripts-to-video", { runWorkers: true, outboundAllow: ["127.0.0.1"], renderPreset: "ultrafast", dispatchIntervalMs: 60_000 });
const service = useService(environment.overrides);
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;
const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/${name}`, input);

async function voicedScript(client: Client, title: string | undefined, texts: string[], voice = true) {
  const { script_id: scriptId } = ok(await call(client, "scripts.create", { ...(title && { title }), language: "en" }));
  const ids: string[] = [];
  for (const text of texts) ids.push(ok(await call(client, "scripts.insert_paragraph", { script_id: scriptId, text })).paragraph.paragraph_id);
  if (voice) ok(await call(client, "scripts.voice", { script_id: scriptId }));
  return { scriptId, ids };
}

async function rendered(client: Client, videoId: string, output: Record<string, unknown>, extension: string): Promise<string> {
  const render = ok(await call(client, "renders.create", { video_id: videoId, output }));
  const finished = await renderEnded(client, videoId, render.render_id, 170_000);
  expect(finished.render_status, JSON.stringify(finished)).toBe("completed");
  const file = path.join(os.tmpdir(), `to-video-${render.render_id}.${extension}`);
  await writeFile(file, new Uint8Array(await (await fetch(finished.output_url)).arrayBuffer()));
  return file;
}

/** A WAV of a steady 60 Hz tone (below the voice), `seconds` long: the music bed. */
function toneWav(seconds: number): Buffer {
  const rate = 22_050;
  const samples = Math.round(seconds * rate);
  const data = Buffer.alloc(samples * 2);
  for (let index = 0; index < samples; index++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 60 * index) / rate) * 12_000), index * 2);
  return Buffer.from(wavFromPcm(data, rate));
}

let music: Server | undefined;
let musicUrl = "";
beforeAll(async () => {
  const wav = toneWav(30);
  music = createServer((_request, response) => void response.writeHead(200, { "content-type": "audio/wav" }).end(wav));
  await new Promise<void>((resolve) => music!.listen(0, "127.0.0.1", resolve));
  musicUrl = `http://127.0.0.1:${(music.address() as AddressInfo).port}/bed.wav`;
});
afterAll(async () => {
  music?.closeAllConnections();
  await new Promise((resolve) => music?.close(resolve));
});

describe("scripts.to_video", () => {
  it("plans a scene per paragraph: its own picture first, else a shelf background by its words and varied, with word-timed karaoke captions, Ken Burns, dissolves and the title card", async () => {
    const { client } = await funded(service, 100);
    const { scriptId, ids } = await voicedScript(client, "Tides", ["The sea rises twice a day.", "The moon pulls the water toward it.", "That is why we have tides."]);
    ok(await call(client, "scripts.set_paragraph_visual", { script_id: scriptId, paragraph_id: ids[1], src: "background:bg_shelf_dot_grid" }));
    const handed = ok(await call(client, "scripts.to_video", { script_id: scriptId }));
    expect(handed).toMatchObject({ object: "script_video", updated: false, voiced: 3, unvoiced: [], options: { captions: "karaoke", transition: "dissolve" }, changed_scenes: ids });
    const [first, second, third] = handed.scenes as Row[];
    expect(second!.visual).toMatchObject({ from: "paragraph", media: "image", src: "background:bg_shelf_dot_grid", ken_burns: true });
    expect(first!.visual).toMatchObject({ from: "background", media: expect.stringMatching(/image|video/) });
    // "sea" finds the ocean gradient; no image model on this deployment, and the answer says so.
    expect(first!.visual.src).toBe("background:bg_shelf_ocean_gradient");
    expect(first!.visual.why).toMatch(/sea.*no image model configured/);
    expect(third!.visual.from).toBe("background");
    for (const [index, scene] of (handed.scenes as Row[]).entries()) {
      expect(scene.words_source).toBe("provider");
      if (index > 0) expect(scene.visual.src).not.toBe(handed.scenes[index - 1].visual.src);
    }

    const { layers, version, duration } = handed.video.composition as { layers: Row[]; version: number; duration: number };
    expect(version).toBe(2);
    expect(duration).toBeCloseTo(handed.runtime_ms / 1000, 2);
    const pictures = layers.filter((layer) => layer.type === "image" || layer.type === "video");
    expect(pictures.map((layer) => layer.src)).toEqual(handed.scenes.map((scene: Row) => scene.visual.src));
    // Consecutive pictures overlap by a dissolve: out of one as the next comes in.
    expect(pictures[0]!.transition_out).toMatchObject({ type: "dissolve" });
    expect(pictures[1]!.transition_in).toMatchObject({ type: "dissolve", duration: pictures[0]!.transition_out.duration });
    expect(pictures[0]!.end).toBeCloseTo(pictures[1]!.start + pictures[0]!.transition_out.duration, 3);
    for (const still of pictures.filter((layer) => layer.type === "image")) expect(still.motion).toBeDefined();
    const voices = layers.filter((layer) => layer.type === "audio");
    expect(voices.map((layer) => [layer.src, layer.role])).toEqual(handed.scenes.map((scene: Row) => [`take:${scene.recording.take_id}`, "voice"]));
    // Captions: the takes' own word timings, shifted to each scene's start, a layer per scene lying
    // in its scene's time (a change of one scene leaves the others' captions as they were).
    const captions = layers.filter((layer) => layer.type === "subtitles");
    expect(captions.map((layer) => [layer.start, layer.end])).toEqual(handed.scenes.map((scene: Row) => [scene.start_ms / 1000, scene.end_ms / 1000]));
    for (const layer of captions) expect(layer.style).toMatchObject({ preset: "karaoke", highlight_current_word: true });
    expect(captions.map((layer) => layer.words.map((word: Row) => word.word).join(" "))).toEqual(handed.scenes.map((scene: Row) => scene.caption));
    const takes = await prisma().scriptTake.findMany({ where: { take_id: handed.scenes[1].recording.take_id } });
    const firstOfSecond = captions[1]!.words[0];
    expect(firstOfSecond.start).toBeCloseTo(handed.scenes[1].start_ms / 1000 + (takes[0]!.words as Row[])[0]!.start, 2);
    const title = layers.find((layer) => layer.type === "text")!;
    expect(title).toMatchObject({ text: "Tides", start: 0 });
    expect(title.end).toBeLessThanOrEqual(3);
  });

  it("takes its options in request: captions none, a cut, a closing card; refuses an unknown option and music that names nothing with 422", async () => {
    const { client } = await funded(service, 100);
    const { scriptId } = await voicedScript(client, undefined, ["One short line."]);
    const plain = ok(await call(client, "scripts.to_video", { script_id: scriptId, request: { captions: "none", transition: "none", closing_card: "Thanks for watching" } }));
    const layers = plain.video.composition.layers as Row[];
    expect(layers.some((layer) => layer.type === "subtitles")).toBe(false);
    expect(layers.find((layer) => layer.type === "text")).toMatchObject({ text: "Thanks for watching", start: plain.runtime_ms / 1000 });
    expect(plain.duration_ms).toBe(plain.runtime_ms + 2500);
    const unknown = refused(await call(client, "scripts.to_video", { script_id: scriptId, request: { captionz: "plain" } }), 422, "validation_failed");
    expect(unknown.details.issues[0]).toMatchObject({ path: "request.captionz", allowed: expect.arrayContaining(["captions", "music_ref"]) });
    expect(refused(await call(client, "scripts.to_video", { script_id: scriptId, request: { captions: "neon" } }), 422, "validation_failed").details.issues[0].path).toBe("request.captions");
    expect(refused(await call(client, "scripts.to_video", { script_id: scriptId, request: { caption: "plain" } }), 422, "validation_failed").details.issues[0]).toMatchObject({ path: "request.caption", type: "object.unknown", did_you_mean: "captions" });
    expect(refused(await call(client, "scripts.to_video", { script_id: scriptId, request: { music_ref: `asset:${newId("asset")}` } }), 422, "validation_failed").details.issues[0].path).toBe("request.music_ref");
    expect(refused(await call(client, "scripts.set_paragraph_visual", { script_id: scriptId, paragraph_id: plain.scenes[0].paragraph_id, src: "background:bg_nope" }), 422, "validation_failed").param).toBe("src");
  });

  it("with no image model, generate_images gives shelf backgrounds saying so, and costs the hand-over's 2 credits alone", async () => {
    const { client } = await funded(service, 100);
    const { scriptId } = await voicedScript(client, undefined, ["The sea is calm tonight."], false);
    const handed = ok(await call(client, "scripts.to_video", { script_id: scriptId, request: { generate_images: true } }));
    expect(handed.credits).toMatchObject({ cost: 2, charged: 2 });
    expect(handed.generated_images).toEqual([]);
    expect(handed.scenes[0].visual).toMatchObject({ from: "background", src: "background:bg_shelf_ocean_gradient" });
    expect(handed.scenes[0].visual.why).toMatch(/; no image model configured$/);
  });

  it("quotes a test key and writes nothing", async () => {
    const fixture = await funded(service, 100);
    const { scriptId } = await voicedScript(fixture.client, "Quoted", ["A line."]);
    const test = await fixture.newKey({ mode: "test" });
    const quoted = ok(await call(test.client, "scripts.to_video", { script_id: scriptId }));
    expect(quoted).toMatchObject({ object: "action_quote", credits: { cost: 2, charged: 0 } });
    expect((await prisma().script.findUniqueOrThrow({ where: { script_id: scriptId } })).video_id).toBeNull();
    expect(await prisma().video.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
  });

  it("updates the script's video in place after one paragraph changes: same video, video.updated, only that scene changed", async () => {
    const { client, workspaceId } = await funded(service, 100);
    const { scriptId, ids } = await voicedScript(client, "Again", ["First line stays.", "Second line stays too.", "The last line will change."]);
    const first = ok(await call(client, "scripts.to_video", { script_id: scriptId }));
    ok(await call(client, "scripts.set_paragraph_text", { script_id: scriptId, paragraph_id: ids[2], text: "The last line changed, and it is longer now." }));
    ok(await call(client, "scripts.voice", { script_id: scriptId }));
    const again = ok(await call(client, "scripts.to_video", { script_id: scriptId }));
    expect(again).toMatchObject({ video_id: first.video_id, updated: true, changed_scenes: [ids[2]] });
    expect(again.scenes.map((scene: Row) => scene.changed)).toEqual([false, false, true]);
    // The unchanged scenes draw exactly as before.
    const pictures = (composition: Row) => (composition.layers as Row[]).filter((layer) => layer.type === "image" || layer.type === "video" || layer.type === "audio");
    expect(pictures(again.video.composition).slice(0, 1)).toEqual(pictures(first.video.composition).slice(0, 1));
    expect(await prisma().video.count({ where: { workspace_id: workspaceId } })).toBe(1);
    const events = await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type: { startsWith: "video." } }, orderBy: { seq: "asc" } });
    expect(events.map((event) => event.type)).toEqual(["video.created", "video.updated"]);
  });

  it("keeps a caption of a 200-character paragraph inside the safe area: the columns outside it are the same with and without captions", async () => {
    const { client } = await funded(service, 100);
    const text = "Incomprehensibilities notwithstanding, extraordinarily counterrevolutionary characterisations overwhelmingly misrepresented institutionalisation, electroencephalography, internationalisation.";
    expect(text.length).toBeGreaterThanOrEqual(190);
    const { scriptId } = await voicedScript(client, undefined, [text]);
    const captioned = ok(await call(client, "scripts.to_video", { script_id: scriptId, request: { transition: "none" } }));
    const words = (captioned.video.composition.layers as Row[]).find((layer) => layer.type === "subtitles")!.words as Row[];
    const at = Number(((words[1]!.start + words[1]!.end) / 2).toFixed(2));
    const withCaptions = await rendered(client, captioned.video_id, { format: "png", at }, "png");
    ok(await call(client, "scripts.to_video", { script_id: scriptId, request: { transition: "none", captions: "none" } }));
    const without = await rendered(client, captioned.video_id, { format: "png", at }, "png");
    const read = async (file: string) => sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const [a, b] = await Promise.all([read(withCaptions), read(without)]);
    expect([a.info.width, a.info.height]).toEqual([1920, 1080]);
    const safe = { left: 96, right: 1920 - 96 };
    let outside = 0;
    let inside = 0;
    for (let y = 0; y < 1080; y++) {
      for (let x = 0; x < 1920; x++) {
        const at3 = (y * 1920 + x) * 3;
        const differs = Math.max(Math.abs(a.data[at3]! - b.data[at3]!), Math.abs(a.data[at3 + 1]! - b.data[at3 + 1]!), Math.abs(a.data[at3 + 2]! - b.data[at3 + 2]!)) > 8;
        if (!differs) continue;
        if (x < safe.left || x >= safe.right) outside++;
        else inside++;
      }
    }
    // The caption is drawn (many pixels differ inside), and nothing of it outside the safe area.
    expect(inside).toBeGreaterThan(2000);
    expect(outside).toBe(0);
  }, 400_000);

  it("ducks the music bed under the voice: the bed is much quieter while a paragraph is spoken than under a silent one", async () => {
    const { client, workspaceId } = await funded(service, 100);
    const { scriptId, ids } = await voicedScript(client, undefined, ["The voice speaks over the music for a while here.", "Then a long silent paragraph follows, never voiced, so the music bed plays alone for several seconds of the video."], false);
    ok(await call(client, "scripts.voice", { script_id: scriptId, paragraph_ids: [ids[0]] }));
    const assetId = newId("asset");
    await prisma().asset.create({ data: { asset_id: assetId, workspace_id: workspaceId, provider_file_name: "bed.wav", provider_file_url: musicUrl, file_mime_type: "audio/wav" } });
    const handed = ok(await call(client, "scripts.to_video", { script_id: scriptId, request: { music_ref: `asset:${assetId}`, captions: "none" } }));
    const bed = (handed.video.composition.layers as Row[]).find((layer) => layer.role === "music")!;
    expect(bed).toMatchObject({ src: `asset:${assetId}`, start: 0, end: handed.duration_ms / 1000, fade_out: expect.any(Number) });
    const file = await rendered(client, handed.video_id, { format: "wav" }, "wav");
    const voiceEnd = handed.scenes[0].end_ms / 1000;
    const under = await bandLevel(file, 60, 0.5, voiceEnd - 0.5);
    const alone = await bandLevel(file, 60, voiceEnd + 1, Math.min(voiceEnd + 3, handed.duration_ms / 1000 - 3.2));
    expect(alone - under).toBeGreaterThan(6);
  }, 400_000);
});
