// Previews and stills (docs/renders.md, "Previews and stills"): a draft preview is a 360p H.264
// made with x264's fastest settings; a still draws only the frame asked for (the background starts
// there, a clip is read from just before it, captions from the word shown), and it is the frame a
// whole render shows at that time. Real ffmpeg, small sizes; no service.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FFMPEG_PATH } from "../src/media/binaries.js";
import { probeMedia } from "../src/media/probe.js";
import { parseComposition } from "../src/renders/composition.js";
import { renderOutput } from "../src/renders/output-spec.js";
import { produceRender } from "../src/renders/produce.js";
import { meanColour, near, meanDifference } from "./support/frames.js";

vi.setConfig({ testTimeout: 180_000 });
const run = promisify(execFile);

const LANDSCAPE = { width: 1920, height: 1080 };
/** The clip's src (its local file is given to the render directly). */
const CLIP = "https://media.example/clip.mp4";
let dir = "";
let clip = "";
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cutroom-render-previews-"));
  // 20 s of moving test pattern: every frame differs from the one a second later.
  clip = path.join(dir, "clip.mp4");
  await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=20", "-c:v", "libx264", "-preset", "ultrafast", "-crf", "12", "-pix_fmt", "yuv420p", clip]);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function render(name: string, composition: unknown, output: unknown, media = new Map<string, string>()) {
  const workDir = await mkdtemp(path.join(dir, `${name}-`));
  return produceRender({
    composition: parseComposition(composition), formatSize: LANDSCAPE, output: renderOutput.parse(output), media, workDir,
    preset: "veryfast", timeoutMs: 120_000, progress: () => undefined,
  });
}

/** RGB pixels of an image file, or of the frame of a video at `seconds`. */
async function pixels(file: string, seconds?: number): Promise<Buffer> {
  const seek = seconds === undefined ? [] : ["-ss", String(seconds)];
  const { stdout } = await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", ...seek, "-i", file, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], { encoding: "buffer", maxBuffer: 16 << 20 });
  return stdout;
}

describe("a draft preview", () => {
  it("is 360p H.264 made with x264's fastest settings", async () => {
    const composition = {
      version: 2, duration: 3, fps: 25, loudness: false,
      layers: [
        { type: "color", color: "#D02020", end: 1.5 },
        { type: "color", color: "#2050D0", start: 1.5 },
        { type: "text", text: "Preview", font_size: 140, y: 700 },
        { type: "tone", frequency: 330, volume: 0.2 },
      ],
    };
    const produced = await render("preview", composition, { resolution: "preview", quality: "draft" });
    const file = produced.files[0]!.path;
    const probe = await probeMedia(file);
    expect(probe.streams.find((stream) => stream.codec_type === "video")).toMatchObject({ codec_name: "h264", width: 640, height: 360 });
    expect(probe.duration).toBeCloseTo(3, 1);
    // x264 writes its settings into the stream: ultrafast's (no sub-pixel refinement, no CABAC).
    const settings = /x264 - core [^\0]*/.exec((await readFile(file)).toString("latin1"))?.[0] ?? "";
    expect(settings).toContain("subme=0");
    expect(settings).toContain("cabac=0");
    // The picture: red, then blue.
    expect(near(await meanColour(file, 0.5, "200:100:0:0"), [208, 32, 32], 30)).toBe(true);
    expect(near(await meanColour(file, 2.5, "200:100:0:0"), [32, 80, 208], 30)).toBe(true);
  });
});

describe("a still", () => {
  // A clip from 2 s (read from 1 s into its file), karaoke captions over the whole time, a
  // progress bar and a title deep in the composition.
  const composition = (duration: number) => ({
    version: 2, duration, fps: 25, loudness: false, background_color: "#101010",
    layers: [
      { type: "video", src: CLIP, start: 2, end: duration, offset: 1, loop: false, volume: 0, x: 0, y: 0, width: 1920, height: 1080, fit: "fill" },
      { type: "shape", shape: "progress_bar", color: "#FFFFFF", x: 100, y: 40, width: 1720, height: 40, start: 0, end: duration },
      {
        type: "subtitles",
        words: Array.from({ length: Math.floor(duration / 0.5) }, (_, index) => ({ word: `w${index}`, start: index * 0.5, end: index * 0.5 + 0.45 })),
        style: { preset: "karaoke", font_size: 90 },
      },
    ],
  });

  it("is the frame a whole render shows at that time: the clip, the captions and the bar where they are then", async () => {
    const media = new Map([[CLIP, clip]]);
    const at = 12;
    const still = (await render("still", composition(16), { format: "png", at, width: 320 }, media)).files[0]!;
    expect((await probeMedia(still.path)).streams[0]).toMatchObject({ codec_name: "png", width: 320, height: 180 });
    const whole = (await render("whole", composition(16), { width: 320, quality: "high" }, media)).files[0]!.path;
    const stillPixels = await pixels(still.path);
    // Within the encoding's noise of the whole render's frame at 12 s, clearly not the one a second off.
    expect(meanDifference(stillPixels, await pixels(whole, at))).toBeLessThan(4);
    expect(meanDifference(stillPixels, await pixels(whole, at - 1))).toBeGreaterThan(8);
  });

  it("deep into a 10-minute composition shows that moment: the bar nine tenths full, the clip long over", async () => {
    const media = new Map([[CLIP, clip]]);
    // 10 minutes of composition, the clip over at 20 s.
    const long = composition(600);
    (long.layers[0] as { end: number }).end = 20;
    const still = (await render("deep", long, { format: "png", at: 540, width: 320 }, media)).files[0]!;
    expect((await probeMedia(still.path)).streams[0]).toMatchObject({ codec_name: "png", width: 320, height: 180 });
    // The progress bar at 540 of 600 s: nine tenths filled (to x ≈ 275 of 320), the rest empty.
    expect(near(await meanColour(still.path, 0, "100:4:20:9"), [255, 255, 255], 40)).toBe(true);
    expect(near(await meanColour(still.path, 0, "20:4:280:9"), [255, 255, 255], 40)).toBe(false);
    // The clip is long over: the same moment drawn without it looks the same.
    const same = composition(600);
    same.layers = [same.layers[1]!, same.layers[2]!];
    const reference = (await render("reference", same, { format: "png", at: 540, width: 320 })).files[0]!;
    expect(meanDifference(await pixels(still.path), await pixels(reference.path))).toBeLessThan(2);
  });
});
