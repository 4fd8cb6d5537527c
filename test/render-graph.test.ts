// The render graph of composition version 2 (src/renders/graph/), drawn by the real ffmpeg at
// small sizes and looked at: transitions, fit modes, shapes and the progress bar, ducking, two-pass
// loudness, the outputs and what every video render also stores. No service, no database.
import os from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtemp, rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FFMPEG_PATH } from "../src/media/binaries.js";
import { parseComposition } from "../src/renders/composition.js";
import { renderOutput } from "../src/renders/output-spec.js";
import { produceRender } from "../src/renders/produce.js";
import { TRANSITION_TYPES } from "../src/video-model/timeline/transitions.js";
import { bandLevel, loudness, meanColour, near } from "./support/frames.js";

// Real renders: minutes, not seconds, on a machine busy with other suites.
vi.setConfig({ testTimeout: 180_000 });

const run = promisify(execFile);
/** A small landscape format: every test renders at 320 × 180 composition pixels. */
const FORMAT = { width: 320, height: 180 };
const RED = [255, 0, 0];
const BLUE = [0, 0, 255];
const GREEN = [0, 128, 0]; // ffmpeg's and CSS's "green"
let dir = "";
const media = new Map<string, string>();

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cutroom-render-graph-"));
  // A 60 × 20 still in thirds: red, green, blue.
  const thirds = path.join(dir, "thirds.png");
  await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=red:s=20x20,pad=40:20:0:0:green,pad=60:20:0:0:blue", "-frames:v", "1", thirds]);
  media.set("https://media.example/thirds.png", thirds);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function render(name: string, composition: unknown, output: unknown = {}) {
  const workDir = await mkdtemp(path.join(dir, `${name}-`));
  return produceRender({
    composition: parseComposition(composition), formatSize: FORMAT, output: renderOutput.parse(output), media, workDir,
    preset: "ultrafast", timeoutMs: 120_000, progress: () => undefined,
  });
}
const mainFile = async (name: string, composition: unknown, output: unknown = {}) => (await render(name, composition, output)).files[0]!.path;

describe("transitions", () => {
  it("a cross wipe half-way shows half of each layer", async () => {
    const file = await mainFile("wipe", {
      duration: 2, fps: 20,
      layers: [
        { type: "color", color: "red", end: 1.5, transition_out: { type: "wipe_left", duration: 1 } },
        { type: "color", color: "blue", start: 0.5, transition_in: { type: "wipe_left", duration: 1 } },
      ],
    });
    // Half-way (t = 1): the incoming blue has covered the right half, the red still shows on the left.
    expect(near(await meanColour(file, 1, "140:180:0:0"), RED)).toBe(true);
    expect(near(await meanColour(file, 1, "140:180:180:0"), BLUE)).toBe(true);
    expect(near(await meanColour(file, 0.25), RED)).toBe(true);
    expect(near(await meanColour(file, 1.75), BLUE)).toBe(true);
  });

  it("draws all 14 types: the layer absent before, partly there half-way, whole after", async () => {
    // Each type brings a blue layer in over a red background in its own 0.6 s slot.
    const layers = TRANSITION_TYPES.map((type, index) => ({ type: "color", color: "blue", start: index * 0.6, end: index * 0.6 + 0.5, transition_in: { type, duration: 0.4 } }));
    const file = await mainFile("all", { duration: TRANSITION_TYPES.length * 0.6, fps: 20, background_color: "red", layers });
    for (const [index, type] of TRANSITION_TYPES.entries()) {
      const slot = index * 0.6;
      const half = await meanColour(file, slot + 0.2);
      const whole = await meanColour(file, slot + 0.45);
      expect(near(whole, BLUE), `${type} after`).toBe(true);
      // Half-way neither all red nor all blue.
      expect(near(half, RED, 15) || near(half, BLUE, 15), `${type} half-way ${half.join(",")}`).toBe(false);
      expect(near(await meanColour(file, slot + 0.55), RED), `${type} gone`).toBe(true);
    }
  });

  it("a fade out reaches transparent at the layer's end", async () => {
    const file = await mainFile("fade-out", { duration: 1, fps: 20, background_color: "red", layers: [{ type: "color", color: "blue", transition_out: { type: "fade", duration: 1 } }] });
    const [r1, , b1] = await meanColour(file, 0.25);
    const [r2, , b2] = await meanColour(file, 0.75);
    expect(b1).toBeGreaterThan(r1);
    expect(r2).toBeGreaterThan(b2);
  });
});

describe("fit", () => {
  // The 60 × 20 still in a 100 × 100 box at the top left, over a black background.
  const boxAt = (fit: string) => ({ duration: 0.5, fps: 10, layers: [{ type: "image", src: "https://media.example/thirds.png", x: 0, y: 0, width: 100, height: 100, fit }] });
  it("cover fills the box with the middle, contain letterboxes, fill stretches, none keeps the size", async () => {
    const cover = await mainFile("cover", boxAt("cover"));
    expect(near(await meanColour(cover, 0, "100:100:0:0"), GREEN, 40)).toBe(true);

    const contain = await mainFile("contain", boxAt("contain"));
    expect(near(await meanColour(contain, 0, "100:20:0:0"), [0, 0, 0])).toBe(true); // bar above
    expect(near(await meanColour(contain, 0, "20:20:4:40"), RED, 40)).toBe(true); // left third of the band

    const fill = await mainFile("fill", boxAt("fill"));
    expect(near(await meanColour(fill, 0, "20:100:4:0"), RED, 40)).toBe(true);
    expect(near(await meanColour(fill, 0, "20:100:76:0"), BLUE, 40)).toBe(true);

    const none = await mainFile("none", boxAt("none"));
    expect(near(await meanColour(none, 0, "100:30:0:0"), [0, 0, 0])).toBe(true); // above the 20-pixel band
    expect(near(await meanColour(none, 0, "12:12:24:44"), RED, 40)).toBe(true); // the band's red third at x 20–40
  });

  it("a version 2 composition covers by default, version 1 stretches as before", async () => {
    const v2 = await mainFile("v2", { version: 2, loudness: false, ...boxAt(undefined as never), layers: [{ type: "image", src: "https://media.example/thirds.png", width: 100, height: 100 }] });
    expect(near(await meanColour(v2, 0, "100:100:0:0"), GREEN, 40)).toBe(true);
    const v1 = await mainFile("v1", { duration: 0.5, fps: 10, layers: [{ type: "image", src: "https://media.example/thirds.png", width: 100, height: 100 }] });
    expect(near(await meanColour(v1, 0, "20:100:4:0"), RED, 40)).toBe(true);
  });
});

describe("shapes", () => {
  it("draws a circle, a rounded rectangle with a stroke, and a progress bar that fills over its time", async () => {
    const file = await mainFile("shapes", {
      duration: 2, fps: 10,
      layers: [
        { type: "shape", shape: "circle", color: "red", x: 0, y: 0, width: 80, height: 80 },
        { type: "shape", shape: "rounded_rect", color: "blue", radius: 20, stroke_color: "green", stroke_width: 6, x: 100, y: 0, width: 80, height: 80 },
        { type: "shape", shape: "progress_bar", color: "white", track_color: "#404040", x: 0, y: 120, width: 300, height: 20 },
      ],
    });
    expect(near(await meanColour(file, 0.5, "10:10:35:35"), RED)).toBe(true); // the circle's centre
    expect(near(await meanColour(file, 0.5, "6:6:0:0"), [0, 0, 0])).toBe(true); // its box's corner, outside it
    expect(near(await meanColour(file, 0.5, "10:10:135:35"), BLUE)).toBe(true);
    expect(near(await meanColour(file, 0.5, "4:10:100:35"), GREEN, 60)).toBe(true); // the stroke on its left edge
    expect(near(await meanColour(file, 0.5, "4:4:100:0"), [0, 0, 0])).toBe(true); // a rounded corner
    // A quarter in: the first quarter of the bar is white, the rest the track's grey.
    expect(near(await meanColour(file, 0.5, "40:8:10:126"), [255, 255, 255], 40)).toBe(true);
    expect(near(await meanColour(file, 0.5, "60:8:200:126"), [64, 64, 64], 30)).toBe(true);
    expect(near(await meanColour(file, 1.9, "60:8:200:126"), [255, 255, 255], 40)).toBe(true);
  });
});

describe("sound", () => {
  it("normalises a version 2 composition to -14 LUFS by two passes, within 1 LU, under -1 dBTP", async () => {
    const file = await mainFile("loud", { version: 2, duration: 2, fps: 10, layers: [{ type: "tone", frequency: 330, volume: 0.05 }] }, { resolution: "preview" });
    const measured = await loudness(file);
    expect(Math.abs(measured.integrated - -14)).toBeLessThanOrEqual(1);
    expect(measured.truePeak).toBeLessThanOrEqual(-0.5);
    // A target of its own, and version 1 keeps levels (a 0.05 sine is about -29 LUFS).
    const quiet = await loudness(await mainFile("target", { version: 2, loudness: { integrated: -23 }, duration: 2, layers: [{ type: "tone", volume: 0.05 }] }));
    expect(Math.abs(quiet.integrated - -23)).toBeLessThanOrEqual(1);
    const kept = await loudness(await mainFile("kept", { duration: 2, layers: [{ type: "tone", volume: 0.05 }] }));
    expect(kept.integrated).toBeLessThan(-25);
  });

  it("ducks music under voice: the music is much lower while the voice speaks than with duck off", async () => {
    const layers = (duck: boolean) => [
      { type: "tone", frequency: 220, volume: 0.3, role: "music", duck },
      { type: "tone", frequency: 2000, volume: 0.3, role: "voice", start: 1, end: 2.5 },
    ];
    const ducked = await mainFile("ducked", { duration: 3, layers: layers(true) });
    const level = await mainFile("level", { duration: 3, layers: layers(false) });
    const under = await bandLevel(ducked, 220, 1.5, 2.4);
    const without = await bandLevel(level, 220, 1.5, 2.4);
    const before = await bandLevel(ducked, 220, 0.2, 0.9);
    expect(without - under).toBeGreaterThan(6);
    expect(Math.abs(before - (await bandLevel(level, 220, 0.2, 0.9)))).toBeLessThan(1); // untouched before the voice
  });

  it("fades a sound layer in and out", async () => {
    const file = await mainFile("afade", { duration: 2, layers: [{ type: "tone", frequency: 440, volume: 0.3, fade_in: 0.5, fade_out: 0.5 }] });
    const start = await bandLevel(file, 440, 0, 0.1);
    const middle = await bandLevel(file, 440, 0.8, 1.2);
    const end = await bandLevel(file, 440, 1.9, 2);
    expect(middle - start).toBeGreaterThan(10);
    expect(middle - end).toBeGreaterThan(10);
  });
});
