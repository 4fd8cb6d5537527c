// docs/guide/script-to-video.md is a test: its `sh` blocks run as written (only the two lines a
// reader pastes, BASE and KEY, are given this service's address and a key) against a running
// service with workers, offline with no provider key, and the MP4 they download is looked at:
// as long as the narration within 0.2 s, sound at the target loudness, captions burned in (the
// caption band changes while words are spoken, more than the picture above it), and a different
// picture for each paragraph.
import { execFile } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { FFMPEG_PATH } from "../src/media/binaries.js";
import { probeMedia } from "../src/media/probe.js";
import { isolatedEnvironment, useService } from "./support/service.js";
import { funded, ok } from "./support/action-calls.js";
import { loudness, meanColour } from "./support/frames.js";

const environment = isolatedEnvironment("guide-script-to-video", { runWorkers: true, renderPreset: "ultrafast", dispatchIntervalMs: 60_000 });
const service = useService(environment.overrides);
const run = promisify(execFile);

type Row = Record<string, any>;

async function guideCommands(): Promise<string> {
  const page = await readFile(new URL("../docs/guide/script-to-video.md", import.meta.url), "utf8");
  return [...page.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!).join("\n");
}

const distance = (a: readonly number[], b: readonly number[]) => Math.max(...a.map((value, index) => Math.abs(value - b[index]!)));

/** The pixels (RGB) of a crop `w:h:x:y` of the frame at `seconds`. */
async function pixels(file: string, seconds: number, crop: string): Promise<Buffer> {
  const { stdout } = await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-ss", String(seconds), "-i", file, "-frames:v", "1", "-vf", `crop=${crop}`, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], { encoding: "buffer", maxBuffer: 64 << 20 });
  return stdout;
}

/** Mean absolute difference of two frames' pixels in a crop, 0 to 255. */
async function change(file: string, from: number, to: number, crop: string): Promise<number> {
  const [a, b] = await Promise.all([pixels(file, from, crop), pixels(file, to, crop)]);
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += Math.abs(a[index]! - b[index]!);
  return sum / a.length;
}

describe("the script-to-video guide", () => {
  it("runs as written with curl and gives a voiced, captioned, illustrated MP4 as long as the narration", async () => {
    const { client } = await funded(service, 100);
    const commands = await guideCommands();
    // At most 8 requests: each curl line (the wait loop's is one request, repeated).
    expect(commands.match(/^(?:[A-Z]+=\$\()?(?:post |curl )/gm)?.length ?? 0).toBeLessThanOrEqual(8);
    const script = commands.replace(/^BASE=.*$/m, `BASE=${service.url}`).replace(/^KEY=.*$/m, `KEY=${client.key}`);
    expect(script).not.toBe(commands);
    const dir = await mkdtemp(path.join(os.tmpdir(), "guide-script-"));
    await run("bash", ["-euo", "pipefail", "-c", script], { cwd: dir, timeout: 300_000, maxBuffer: 16 << 20 });

    const handover = JSON.parse(await readFile(path.join(dir, "handover.json"), "utf8")) as Row;
    const narration = ok(await client.get(`/api/v1/actions/scripts.narration?script_id=${handover.script_id}`));
    expect(narration).toMatchObject({ complete: true });
    const file = path.join(dir, "tide.mp4");
    const probe = await probeMedia(file);
    expect(probe.streams.find((stream) => stream.codec_type === "video")).toMatchObject({ width: 1920, height: 1080 });
    expect(Math.abs(probe.duration! - narration.runtime_ms / 1000)).toBeLessThanOrEqual(0.2);
    // Heard, at the target loudness (version 2: -14 LUFS).
    expect(Math.abs((await loudness(file)).integrated - -14)).toBeLessThanOrEqual(2);

    const [first, second] = handover.scenes as Row[];
    // Captions: within the first scene, the caption band changes as the words go by, while the
    // picture above it (a slowly moving still) barely does.
    const words = (handover.video.composition.layers as Row[]).find((layer) => layer.type === "subtitles")!.words as Row[];
    const sceneEnd = first!.end_ms / 1000;
    // Two moments of the first scene in different captions (four words each).
    const early = words[0]!.start + 0.15;
    const late = words[4]!.start + 0.15;
    expect(words[5]!.end).toBeLessThan(sceneEnd);
    const band = "1728:200:96:760";
    const sky = "1728:200:96:60";
    const bandChange = await change(file, early, late, band);
    const skyChange = await change(file, early, late, sky);
    expect(bandChange).toBeGreaterThan(skyChange * 2 + 2);
    // A different picture for each paragraph.
    expect(first!.visual.src).not.toBe(second!.visual.src);
    const middle = (scene: Row) => (scene.start_ms + scene.end_ms) / 2000;
    expect(distance(await meanColour(file, middle(first!), sky), await meanColour(file, middle(second!), sky))).toBeGreaterThan(20);
  }, 400_000);
});
