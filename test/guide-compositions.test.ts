// Every `json composition` block of docs/guide/compositions.md renders as written: parsed as a
// video's composition is saved, drawn by the real graph builder (at 480 pixels wide, to keep the
// suite fast) and checked for a picture, a sound track and no all-black frame. Media named by
// `background:<ref>` are made with the static library's own recipes, as the service makes them.
// Sections added to the page are picked up by themselves; a block's info string may say
// `format=portrait` or `format=square` (landscape otherwise). `json` blocks holding an `output`
// are checked against renders.create's output schema. A `json composition merge` block holds
// {composition, merge} and is rendered with its merge values; every block's text must pass the
// save-time text checks (fits its box, fonts draw it).
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHELF } from "../src/assets/static-library.js";
import { FFMPEG_PATH } from "../src/media/binaries.js";
import { probeMedia } from "../src/media/probe.js";
import { FORMAT_SIZES, isRenderFormat, parseComposition } from "../src/renders/composition.js";
import { renderOutput } from "../src/renders/output-spec.js";
import { produceRender } from "../src/renders/produce.js";
import type { QualityReport } from "../src/renders/quality.js";
import { checkCompositionText } from "../src/video-model/timeline/text-checks.js";

const run = promisify(execFile);
const PAGE = new URL("../docs/guide/compositions.md", import.meta.url);

interface Example { heading: string; info: string; json: string }

async function examples(): Promise<Example[]> {
  const text = await readFile(PAGE, "utf8");
  const found: Example[] = [];
  let heading = "";
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.startsWith("#")) heading = line.replace(/^#+\s*/, "");
    const fence = /^```(json.*)$/.exec(line);
    if (!fence) continue;
    const body: string[] = [];
    for (index++; index < lines.length && lines[index] !== "```"; index++) body.push(lines[index]!);
    found.push({ heading, info: fence[1]!.trim(), json: body.join("\n") });
  }
  return found;
}

let dir = "";
const media = new Map<string, string>();
const all = await examples();
const compositions = all.filter((example) => /^json composition\b/.test(example.info));
const requests = all.filter((example) => example.info === "json" && example.json.includes('"output"'));

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cutroom-guide-"));
  const refs = new Set(compositions.flatMap((example) => [...example.json.matchAll(/"background:([\w-]+)"/g)].map((match) => match[1]!)));
  for (const ref of refs) {
    const item = SHELF.find((entry) => entry.ref === ref);
    if (!item) throw new Error(`The guide names background:${ref}, which is not on the shelf.`);
    const file = path.join(dir, `${ref}.${item.extension}`);
    await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-y", ...item.ffmpeg, file], { timeout: 60_000 });
    media.set(`background:${ref}`, file);
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("docs/guide/compositions.md", () => {
  it("has examples to render", () => {
    expect(compositions.length).toBeGreaterThanOrEqual(6);
  });

  it.each(compositions.map((example, index) => [`${index + 1}. ${example.heading}`, example] as const))("renders %s", async (_name, example) => {
    const format = /format=(\w+)/.exec(example.info)?.[1] ?? "landscape";
    expect(isRenderFormat(format)).toBe(true);
    // A `json composition merge` block is {composition, merge}: rendered with its merge values.
    const body = JSON.parse(example.json) as { composition?: unknown; merge?: Record<string, string> };
    const composition = /\bmerge\b/.test(example.info) ? parseComposition(body.composition, { merge: body.merge }) : parseComposition(body);
    // As at save: text fits its box and its fonts draw it.
    expect(checkCompositionText(composition, format)).toEqual([]);
    const workDir = await mkdtemp(path.join(dir, "example-"));
    const produced = await produceRender({
      composition, formatSize: FORMAT_SIZES[format as keyof typeof FORMAT_SIZES], output: renderOutput.parse({ width: format === "portrait" ? 270 : 480, quality: "draft" }),
      media, workDir, preset: "ultrafast", timeoutMs: 180_000, progress: () => undefined,
    });
    const probe = await probeMedia(produced.files[0]!.path);
    expect(probe.streams.map((stream) => stream.codec_type).sort()).toEqual(["audio", "video"]);
    expect(probe.duration).toBeCloseTo(composition.duration, 0);
    const quality = produced.quality as QualityReport;
    expect(quality.warnings.filter((warning) => /black/.test(warning))).toEqual([]);
  }, 240_000);

  it.each(requests.map((example, index) => [`${index + 1}. ${example.heading}`, example] as const))("documents a valid output: %s", (_name, example) => {
    const body = JSON.parse(example.json) as { output: unknown };
    expect(renderOutput.safeParse(body.output).success).toBe(true);
  });
});
