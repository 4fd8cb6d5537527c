// Where a split render cuts (docs/renders.md, "Split rendering"), and what makes a segment the
// same as one rendered before: its content hash.
//
// Segments are whole frames of the render's picture, cut at fixed multiples of the segment length
// from the composition's start (so a change late in a composition leaves the earlier segments as
// they were); a remainder shorter than half a segment joins the one before it.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Composition } from "../composition.js";
import { frameSpan } from "../graph/build.js";
import { outputKind, resolveFps, resolveRange, type RenderOutput } from "../output-spec.js";

export interface SegmentPlan {
  index: number;
  /** Frames [first, last) of the whole render's picture. */
  first: number;
  last: number;
}

/**
 * The segments of a render, or undefined when it renders in one piece: only MP4 video splits
 * (H.264 parts join without re-encoding), and only when it lasts longer than `splitSeconds`.
 */
export function planSegments(composition: Composition, output: RenderOutput, splitSeconds: number): SegmentPlan[] | undefined {
  if (splitSeconds <= 0 || output.format !== "mp4" || outputKind(output.format) !== "video") return undefined;
  const fps = resolveFps(composition.fps, output);
  const range = resolveRange(composition.duration, output, fps);
  if (range.end - range.start <= splitSeconds) return undefined;
  const [first, last] = frameSpan(range, fps);
  const length = Math.max(1, Math.round(splitSeconds * fps));
  const cuts = [first];
  for (let cut = (Math.floor(first / length) + 1) * length; cut < last; cut += length) cuts.push(cut);
  // A short remainder is no segment of its own.
  if (cuts.length > 1 && last - cuts.at(-1)! < length / 2) cuts.pop();
  if (cuts.length < 2) return undefined;
  return cuts.map((start, index) => ({ index, first: start, last: cuts[index + 1] ?? last }));
}

/**
 * The content hash of a segment's command: its arguments with the work directory taken out, the
 * bytes of every file of the work directory they name (downloaded media, fonts), and of every file
 * the graph writes (rasterised text and its picture lists, subtitle files, shapes). Two segments
 * with one hash draw the same frames.
 */
export async function segmentHash(command: { args: readonly string[]; files: readonly { path: string; content: string | Uint8Array }[] }, workDir: string, outputPath: string): Promise<string> {
  const args = command.args;
  const hash = createHash("sha256");
  const prefix = `${workDir}${path.sep}`;
  const named = new Set<string>();
  for (const arg of args) {
    if (arg === outputPath) continue;
    for (const match of arg.matchAll(new RegExp(`${escapeRegExp(prefix)}([\\w.-]+)`, "g"))) named.add(match[1]!);
    hash.update(arg.split(prefix).join("<work>/")).update("\0");
  }
  const written = new Map(command.files.map((file) => [path.basename(file.path), file.content]));
  for (const name of [...written.keys()].sort()) hash.update(`\0wrote ${name}\0`).update(written.get(name)!);
  for (const name of [...named].filter((entry) => !written.has(entry)).sort()) {
    hash.update(`\0file ${name}\0`);
    hash.update(await readFile(path.join(workDir, name)).catch(() => Buffer.from("missing")));
  }
  return hash.digest("hex").slice(0, 32);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Storage key of a cached segment: one folder per video, holding its last split render's segments. */
export function segmentKey(workspaceId: string, videoId: string, hash: string): string {
  return `render-cache/${workspaceId}/${videoId}/${hash}.mp4`;
}
