// What a render makes (src/renders/produce.ts): every output format probed, the resolution, fps and
// range honoured, the poster, thumbnail and contact sheet decoded, and the quality report measured
// on the output. Real ffmpeg, small sizes; no service.
import os from "node:os";
import path from "node:path";
import { mkdtemp, rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { probeMedia } from "../src/media/probe.js";
import { parseComposition } from "../src/renders/composition.js";
import { renderOutput } from "../src/renders/output-spec.js";
import { produceRender } from "../src/renders/produce.js";
import type { QualityReport } from "../src/renders/quality.js";
import { meanColour, near } from "./support/frames.js";

// Real renders: minutes, not seconds, on a machine busy with other suites.
vi.setConfig({ testTimeout: 180_000 });

const LANDSCAPE = { width: 1920, height: 1080 };
let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cutroom-render-outputs-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Red, then green from 1 s, then blue from 2 s; a tone throughout. */
const STORY = {
  duration: 3, fps: 10,
  layers: [
    { type: "color", color: "red", end: 1 },
    { type: "color", color: "#00FF00", start: 1, end: 2 },
    { type: "color", color: "blue", start: 2 },
    { type: "tone", frequency: 440, volume: 0.2 },
  ],
};

async function render(name: string, output: unknown, composition: unknown = STORY) {
  const workDir = await mkdtemp(path.join(dir, `${name}-`));
  return produceRender({
    composition: parseComposition(composition), formatSize: LANDSCAPE, output: renderOutput.parse(output), media: new Map(), workDir,
    preset: "ultrafast", timeoutMs: 120_000, progress: () => undefined,
  });
}

describe("output formats", () => {
  it("mp4 at preview size: H.264/AAC 640 × 360, with a poster, a thumbnail and a contact sheet", async () => {
    const produced = await render("mp4", { resolution: "preview", quality: "draft" });
    expect(produced.files.map((file) => file.kind)).toEqual(["video", "poster", "thumbnail", "contact_sheet"]);
    const probe = await probeMedia(produced.files[0]!.path);
    expect(probe.streams.map((stream) => stream.codec_name).sort()).toEqual(["aac", "h264"]);
    expect(probe.streams.find((stream) => stream.codec_type === "video")).toMatchObject({ width: 640, height: 360 });
    expect(probe.duration).toBeCloseTo(3, 1);

    const [, poster, thumbnail, sheet] = produced.files;
    // The poster at one third in (1 s): green. The thumbnail is the same frame, at most 320 wide.
    expect((await probeMedia(poster!.path)).streams[0]).toMatchObject({ codec_name: "mjpeg", width: 640, height: 360 });
    expect(near(await meanColour(poster!.path, 0), [0, 255, 0], 40)).toBe(true);
    expect((await probeMedia(thumbnail!.path)).streams[0]).toMatchObject({ codec_name: "mjpeg", width: 320, height: 180 });
    // The contact sheet: a cell per stretch between layer changes (0, 1, 2 s), 2 columns of 320 × 180.
    expect((await probeMedia(sheet!.path)).streams[0]).toMatchObject({ codec_name: "png", width: 640, height: 360 });
    expect(near(await meanColour(sheet!.path, 0, "300:120:10:10"), [255, 0, 0], 40)).toBe(true);
    expect(near(await meanColour(sheet!.path, 0, "300:120:330:10"), [0, 255, 0], 40)).toBe(true);
    expect(near(await meanColour(sheet!.path, 0, "300:120:10:190"), [0, 0, 255], 40)).toBe(true);
    // Labelled: the label's corner is not the cell's plain colour.
    expect(near(await meanColour(sheet!.path, 0, "60:24:0:150"), [255, 0, 0], 20)).toBe(false);
  });

  it("webm (VP9/Opus), gif, mp3, wav, png and jpg", async () => {
    const small = { width: 320 };
    const webm = await probeMedia((await render("webm", { ...small, format: "webm", quality: "draft" })).files[0]!.path);
    expect(webm.streams.map((stream) => stream.codec_name).sort()).toEqual(["opus", "vp9"]);
    const gif = await render("gif", { ...small, format: "gif" });
    const gifProbe = await probeMedia(gif.files[0]!.path);
    expect(gifProbe.streams).toMatchObject([{ codec_name: "gif", width: 320, height: 180 }]);
    expect(gif.files.map((file) => file.kind)).toContain("contact_sheet");
    const mp3 = await render("mp3", { format: "mp3" });
    expect(mp3.files.map((file) => file.kind)).toEqual(["audio"]);
    expect((await probeMedia(mp3.files[0]!.path)).streams).toMatchObject([{ codec_name: "mp3", sample_rate: 48_000 }]);
    const wav = await probeMedia((await render("wav", { format: "wav" })).files[0]!.path);
    expect(wav.streams).toMatchObject([{ codec_name: "pcm_s16le", channels: 2 }]);
    expect(wav.duration).toBeCloseTo(3, 1);
    const png = await render("png", { ...small, format: "png", at: 2.5 });
    expect(png.files.map((file) => file.kind)).toEqual(["still"]);
    expect((await probeMedia(png.files[0]!.path)).streams).toMatchObject([{ codec_name: "png", width: 320, height: 180 }]);
    expect(near(await meanColour(png.files[0]!.path, 0), [0, 0, 255])).toBe(true);
    const jpg = await render("jpg", { ...small, format: "jpg", at: 1.5 });
    expect(near(await meanColour(jpg.files[0]!.path, 0), [0, 255, 0], 40)).toBe(true);
  });

  it("renders a range, at its own fps, letterboxed into a frame of another shape", async () => {
    const produced = await render("range", { width: 320, height: 320, fps: 5, range: { start: 1.5, length: 1 } });
    const probe = await probeMedia(produced.files[0]!.path);
    expect(probe.duration).toBeCloseTo(1, 1);
    expect(probe.streams.find((stream) => stream.codec_type === "video")).toMatchObject({ width: 320, height: 320 });
    // Starts in the green stretch, ends in the blue; the 320 × 180 picture centred between bars.
    expect(near(await meanColour(produced.files[0]!.path, 0.1, "320:100:0:110"), [0, 255, 0], 40)).toBe(true);
    expect(near(await meanColour(produced.files[0]!.path, 0.7, "320:100:0:110"), [0, 0, 255], 40)).toBe(true);
    expect(near(await meanColour(produced.files[0]!.path, 0.5, "320:60:0:0"), [0, 0, 0])).toBe(true);
  });
});

describe("quality report", () => {
  it("measures loudness, lengths and drift, and finds black, frozen and silent stretches", async () => {
    const produced = await render("quality", { width: 320 }, {
      version: 2, duration: 6, fps: 10,
      layers: [
        { type: "color", color: "white", end: 3.5 },
        { type: "tone", frequency: 440, volume: 0.2, end: 3 },
      ],
    });
    const quality = produced.quality as QualityReport;
    expect(Math.abs(quality.loudness_lufs! - -14)).toBeLessThanOrEqual(1.5);
    expect(quality.true_peak_dbtp).toBeLessThanOrEqual(-0.5);
    expect(quality.video_seconds).toBeCloseTo(6, 1);
    expect(quality.audio_seconds).toBeCloseTo(6, 1);
    expect(quality.drift_ms).toBeLessThanOrEqual(100);
    expect(quality.black).toEqual([{ start: expect.closeTo(3.5, 0) as number, end: expect.closeTo(6, 0) as number }]);
    expect(quality.frozen.length).toBeGreaterThan(0); // a still picture
    expect(quality.silent).toEqual([{ start: expect.closeTo(3, 0) as number, end: expect.closeTo(6, 0) as number }]);
    expect(quality.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/^The last 2\.\d s are black\.$/), expect.stringMatching(/^Silence from 3/)]));
  });
});
