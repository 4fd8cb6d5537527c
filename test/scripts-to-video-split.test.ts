// Re-handover and split renders (docs/scripts.md, "Re-handover and split renders"): a voiced script
// of three paragraphs handed over and rendered in 2-s segments; its middle paragraph rewritten and
// voiced again, handed over again (the same video) and rendered again. The second render reuses
// the segments that lie before the changed scene and draws the others again; its frames before
// the changed scene are the first render's, the changed scene's are not, and the scene after it
// (moved in time) looks as it did.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FFMPEG_PATH } from "../src/media/binaries.js";
import { funded, ok, renderEnded } from "./support/action-calls.js";
import { meanDifference } from "./support/frames.js";
import { isolatedEnvironment, useService, type Client } from "./support/service.js";

type Row = Record<string, any>;
const run = promisify(execFile);

const SEGMENT_SECONDS = 2;
const environment = isolatedEnvironment("scripts_split", { runWorkers: true, renderPreset: "ultrafast", renderSplitSeconds: SEGMENT_SECONDS, dispatchIntervalMs: 60_000 });
const service = useService(environment.overrides);
const FPS = 30;
/** Small frames: the test is about which segments are drawn, not about the picture's size. */
const OUTPUT = { format: "mp4", width: 320 };

let scratch = "";
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "cutroom-scripts-split-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/${name}`, input);

async function renderedFile(client: Client, videoId: string, name: string): Promise<{ render: Row; file: string }> {
  const created = ok(await call(client, "renders.create", { video_id: videoId, output: OUTPUT }));
  const render = await renderEnded(client, videoId, created.render_id, 300_000);
  expect(render.render_status, JSON.stringify(render)).toBe("completed");
  const file = path.join(scratch, name);
  await writeFile(file, new Uint8Array(await (await fetch(render.output_url)).arrayBuffer()));
  return { render, file };
}

/** Frame `n` (from 0) as RGB pixels, `crop` an ffmpeg crop of it. */
async function frame(file: string, n: number, crop?: string): Promise<Buffer> {
  const filters = [`select=eq(n\\,${n})`, ...(crop ? [`crop=${crop}`] : [])].join(",");
  const { stdout } = await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-i", file, "-vf", filters, "-vsync", "0", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], { encoding: "buffer", maxBuffer: 8 << 20 });
  return stdout;
}

describe("re-handover and split renders", () => {
  it("a changed middle paragraph: the second render reuses the segments before its scene, and only its scene looks different", async () => {
    const { client } = await funded(service, 100);
    const { script_id: scriptId } = ok(await call(client, "scripts.create", { title: "Harbour", language: "en" }));
    const texts = [
      "The harbour wakes before the sun, and the fishing boats slip out one by one across the quiet grey water.",
      "Gulls follow the boats and call to each other.",
      "By evening the boats come home again, heavy with the catch, and the lights of the town come on.",
    ];
    const ids: string[] = [];
    for (const text of texts) ids.push(ok(await call(client, "scripts.insert_paragraph", { script_id: scriptId, text })).paragraph.paragraph_id);
    // The scenes around the changed one name their pictures: the shelf's pick by words varies from
    // the scene before, and this test is about the render, not the pick.
    ok(await call(client, "scripts.set_paragraph_visual", { script_id: scriptId, paragraph_id: ids[0], src: "background:bg_shelf_dot_grid" }));
    ok(await call(client, "scripts.set_paragraph_visual", { script_id: scriptId, paragraph_id: ids[2], src: "background:bg_shelf_dusk_gradient" }));
    ok(await call(client, "scripts.voice", { script_id: scriptId }));
    const first = ok(await call(client, "scripts.to_video", { script_id: scriptId }));
    const scene = (answer: Row, index: number) => ({ start: answer.scenes[index].start_ms / 1000, end: answer.scenes[index].end_ms / 1000 });
    expect(scene(first, 0).end).toBeGreaterThan(2 * SEGMENT_SECONDS);
    const one = await renderedFile(client, first.video_id, "first.mp4");
    const total = one.render.segments.total as number;
    expect(total).toBeGreaterThanOrEqual(5);
    expect(one.render.segments.reused).toBe(0);

    ok(await call(client, "scripts.set_paragraph_text", { script_id: scriptId, paragraph_id: ids[1], text: "Seals watch from the rocks, and one of them dives for a fish that got away from the nets." }));
    ok(await call(client, "scripts.voice", { script_id: scriptId }));
    const again = ok(await call(client, "scripts.to_video", { script_id: scriptId }));
    expect(again).toMatchObject({ video_id: first.video_id, updated: true });
    expect(again.scenes.map((row: Row) => row.changed)).toEqual([false, true, true]);
    expect(scene(again, 0)).toEqual(scene(first, 0));
    const two = await renderedFile(client, again.video_id, "again.mp4");
    // The segments that lie wholly before the changed scene (and its dissolve in) are reused; the
    // ones it or the moved scene after it touch are drawn again.
    const before = Math.floor((scene(first, 0).end - 0.6) / SEGMENT_SECONDS);
    expect(two.render.segments.reused).toBeGreaterThanOrEqual(before);
    expect(two.render.segments.reused).toBeGreaterThan(0);
    expect(two.render.segments.reused).toBeLessThan(two.render.segments.total);

    // Frames of the first scene: the first render's.
    for (const seconds of [0.5, SEGMENT_SECONDS + 0.5, scene(first, 0).end - 0.8]) {
      const n = Math.round(seconds * FPS);
      expect(meanDifference(await frame(two.file, n), await frame(one.file, n)), `frame ${n}`).toBeLessThan(0.5);
    }
    // The changed scene's captions say other words.
    const band = "iw:ih/3:0:ih*2/3";
    const middle = Math.round((scene(again, 1).start + 1.5) * FPS);
    expect(meanDifference(await frame(two.file, middle, band), await frame(one.file, Math.round((scene(first, 1).start + 1.5) * FPS), band))).toBeGreaterThan(0.5);
    // The scene after it, moved in time, looks as it did a second into it.
    const [late, early] = [Math.round((scene(again, 2).start + 1) * FPS), Math.round((scene(first, 2).start + 1) * FPS)];
    expect(meanDifference(await frame(two.file, late), await frame(one.file, early))).toBeLessThan(3);
  }, 700_000);
});
