// Every composition saved before version 2 renders as before: the fixtures (compositions the
// earlier tests rendered, of the layers the graph builder draws itself) were rendered once by the
// builder of before version 2 on its 2018 ffmpeg, and measured (mean colours of frames and their
// halves at fixed times, sound levels of half-second windows) into reference.json. The same
// fixtures rendered now must measure the same, within what two encoders differ by.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FFMPEG_PATH } from "../src/media/binaries.js";
import { parseComposition } from "../src/renders/composition.js";
import { DEFAULT_OUTPUT } from "../src/renders/output-spec.js";
import { produceRender } from "../src/renders/produce.js";
import { makeFixtureMedia, type FixtureStats } from "./fixtures/compositions-v1/media.js";
import { measureFixture } from "./fixtures/compositions-v1/stats.js";

const SIZE = { width: 320, height: 180 };
const folder = new URL("./fixtures/compositions-v1/", import.meta.url);
const fixtures = JSON.parse(await readFile(new URL("compositions.json", folder), "utf8")) as Record<string, unknown>;
const reference = JSON.parse(await readFile(new URL("reference.json", folder), "utf8")) as Record<string, FixtureStats>;
let dir = "";
let media = new Map<string, string>();

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cutroom-v1-"));
  media = await makeFixtureMedia(FFMPEG_PATH, dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("compositions saved before version 2", () => {
  it.each(Object.keys(fixtures))("%s renders as it did", async (name) => {
    const composition = parseComposition(fixtures[name]);
    expect(composition.version).toBeUndefined();
    const workDir = await mkdtemp(path.join(dir, `${name}-`));
    const produced = await produceRender({ composition, formatSize: SIZE, output: DEFAULT_OUTPUT, media, workDir, preset: "ultrafast", timeoutMs: 120_000, progress: () => undefined });
    const now = await measureFixture(FFMPEG_PATH, produced.files[0]!.path, composition.duration, SIZE);
    const before = reference[name]!;
    for (const [index, frame] of before.frames.entries()) {
      for (const part of ["whole", "left", "right"] as const) {
        const channels = now.frames[index]![part].map((value, channel) => Math.abs(value - frame[part][channel]!));
        expect(Math.max(...channels), `${name} at ${frame.at} s, ${part}: ${now.frames[index]![part].join(",")} against ${frame[part].join(",")}`).toBeLessThanOrEqual(12);
      }
    }
    for (const [index, window] of before.sound.entries()) {
      const level = now.sound[index]!.rms_db;
      if (window.rms_db === null || window.rms_db < -60) expect(level === null || level < -60, `${name} ${window.from} s silent`).toBe(true);
      else expect(Math.abs(level! - window.rms_db), `${name} ${window.from} s: ${level} dB against ${window.rms_db}`).toBeLessThanOrEqual(1);
    }
  }, 120_000);
});
