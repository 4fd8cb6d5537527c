// The layers the renderer grew for the families (src/renders/render-command.ts, src/renders/text/):
// Ken Burns motion, video clips, alpha fades, questions and subtitles burned in. Each composition is drawn by the real ffmpeg at a small size and the
// frames are read back as pixels; no service, no database.
import os from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FFMPEG_PATH, FFPROBE_PATH } from "../src/media/binaries.js";
import { DEFAULT_OUTPUT } from "../src/renders/output-spec.js";
import { probeMedia } from "../src/media/probe.js";
import { parseComposition } from "../src/renders/composition.js";
import { buildRenderCommand } from "../src/renders/render-command.js";

const run = promisify(execFile);
const SIZE = { width: 320, height: 180 };
let dir = "";
const media = new Map<string, string>();

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cutroom-render-layers-"));
  const still = path.join(dir, "still.png");
  const clip = path.join(dir, "clip.mp4");
  // A still whose left half is red and right half is blue: a pan shows in the mean colour.
  await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=red:s=160x90,pad=320:90:0:0:blue", "-frames:v", "1", still]);
  await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=green:s=160x90:d=2", "-f", "lavfi", "-i", "sine=d=2", "-shortest", "-c:v", "libx264", "-c:a", "aac", clip]);
  media.set("https://media.example/still.png", still);
  media.set("https://media.example/clip.mp4", clip);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function render(name: string, composition: unknown): Promise<string> {
  const work = await mkdtemp(path.join(dir, `${name}-`));
  const output = path.join(work, "out.mp4");
  const command = await buildRenderCommand({ composition: parseComposition(composition), formatSize: SIZE, output: DEFAULT_OUTPUT, media, workDir: work, outputPath: output, preset: "ultrafast" });
  for (const file of command.files) await writeFile(file.path, file.content);
  await run(FFMPEG_PATH, command.args.filter((arg: string) => arg !== "-progress" && arg !== "pipe:1"));
  return output;
}

/** Mean red, green, blue of a frame (or of a crop of it). */
async function meanColour(file: string, seconds: number, crop?: string): Promise<[number, number, number]> {
  const { stdout } = await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-ss", String(seconds), "-i", file, "-frames:v", "1", ...(crop ? ["-vf", `crop=${crop}`] : []), "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], { encoding: "buffer", maxBuffer: 4 << 20 });
  const pixels = stdout as unknown as Buffer;
  const sums = [0, 0, 0];
  for (let index = 0; index < pixels.length; index++) sums[index % 3]! += pixels[index]!;
  const count = pixels.length / 3;
  return sums.map((sum) => Math.round(sum / count)) as [number, number, number];
}

describe("render layers", () => {
  it("pans a still (Ken Burns): the frame moves from the red half towards the blue half", async () => {
    const file = await render("pan", { duration: 2, fps: 10, layers: [{ type: "image", src: "https://media.example/still.png", motion: { type: "pan_right", zoom: 2 } }] });
    const [redStart, , blueStart] = await meanColour(file, 0);
    const [redEnd, , blueEnd] = await meanColour(file, 1.9);
    expect(redStart).toBeGreaterThan(blueStart);
    expect(blueEnd).toBeGreaterThan(redEnd);
  });

  it("plays a video clip from its start time, with its sound, and cross-fades into it", async () => {
    const file = await render("clip", {
      duration: 3, fps: 10, background_color: "black",
      layers: [
        { type: "image", src: "https://media.example/still.png", width: 320, height: 180, end: 2, fade_out: 1 },
        { type: "video", src: "https://media.example/clip.mp4", start: 1, end: 3, fade_in: 1, volume: 1 },
      ],
    });
    const probe = await probeMedia(file);
    expect(Math.abs(probe.duration! - 3)).toBeLessThanOrEqual(0.1);
    expect(probe.streams.map((stream) => stream.codec_type).sort()).toEqual(["audio", "video"]);
    // Before the clip: the still (red on the left). Half-way through the cross-fade: both.
    // After it: the clip's green alone.
    const before = await meanColour(file, 0.5, "160:180:0:0");
    const during = await meanColour(file, 1.5, "160:180:0:0");
    const after = await meanColour(file, 2.5, "160:180:0:0");
    expect(before[0]).toBeGreaterThan(200);
    expect(before[1]).toBeLessThan(40);
    expect(during[0]).toBeGreaterThan(40);
    expect(during[1]).toBeGreaterThan(40);
    expect(after[0]).toBeLessThan(40);
    expect(after[1]).toBeGreaterThan(90);
  });

  it("draws a question and boxes the right answer in its colour from reveal_at", async () => {
    const file = await render("question", {
      duration: 2, fps: 10,
      layers: [{ type: "question", question: "2 + 2?", answers: ["3", "4"], correct: 1, reveal_at: 1, font_size: 16, correct_color: "#00FF00" }],
    });
    // The second answer's row: y = 36 (question) + 2 × 29 … its band of rows, green only after the reveal.
    const band = "320:40:0:100";
    const [, greenBefore] = await meanColour(file, 0.5, band);
    const [, greenAfter] = await meanColour(file, 1.5, band);
    expect(greenAfter - greenBefore).toBeGreaterThan(10);
  });

  it("burns subtitles in, only while a group is shown", async () => {
    const file = await render("subtitles", {
      duration: 2, fps: 10,
      layers: [{ type: "subtitles", groups: [{ start: 0.2, end: 1, words: [{ word: "HELLO", start: 0.2, end: 1, emphasis: true }] }], style: { font_size: 40, margin: 20 } }],
    });
    const during = await meanColour(file, 0.5);
    const after = await meanColour(file, 1.5);
    expect(after).toEqual([0, 0, 0]);
    // The emphasised word in the default emphasis colour (#FFD400): red and green, little blue.
    expect(during[0]).toBeGreaterThan(2);
    expect(during[0]).toBeGreaterThan(during[2]);
  });

  it("puts a key frame at least every 2 s, so a seek into the output decodes little", async () => {
    const file = await render("keyframes", { duration: 7, fps: 10, layers: [{ type: "image", src: "https://media.example/still.png", motion: { type: "zoom_in" } }] });
    const { stdout } = await run(FFPROBE_PATH, ["-v", "error", "-select_streams", "v", "-skip_frame", "nokey", "-show_entries", "frame=pts_time", "-of", "csv=p=0", file]);
    const keys = stdout.split("\n").map((line) => line.replace(/,$/, "").trim()).filter(Boolean).map(Number);
    expect(keys[0]).toBe(0);
    const gaps = keys.slice(1).map((time, index) => time - keys[index]!);
    expect(Math.max(...gaps, 7 - keys.at(-1)!)).toBeLessThanOrEqual(2.05);
  });
});
