// What a render makes (`output` of renders.create, an extension beyond the catalog's input:
// docs/renders.md): the file format, picture size, frame rate, encoder effort and the part of the
// composition. Resolved against the video's format into the frame the graph draws (./graph/build.ts).
import { z } from "zod";
import type { RenderFrame } from "./graph/build.js";

export const OUTPUT_FORMATS = ["mp4", "webm", "gif", "mp3", "wav", "png", "jpg"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
export const RESOLUTIONS = ["preview", "sd", "hd", "1080", "4k"] as const;
export const QUALITIES = ["draft", "standard", "high"] as const;

/** The shorter side of the frame at each named resolution. */
const SHORT_SIDE: Record<(typeof RESOLUTIONS)[number], number> = { preview: 360, sd: 480, hd: 720, 1080: 1080, "4k": 2160 };

export const renderOutput = z.strictObject({
  format: z.enum(OUTPUT_FORMATS).default("mp4").describe("mp4 (H.264/AAC), webm (VP9/Opus), gif, mp3, wav, png or jpg (a still at `at`)."),
  at: z.number().min(0).max(600).optional().describe("png/jpg: the second of the composition the still shows (default 0)."),
  resolution: z.enum(RESOLUTIONS).default("1080").describe("The frame's shorter side: preview 360, sd 480, hd 720, 1080 (the format's own size), 4k 2160."),
  width: z.number().int().min(16).max(4096).optional().describe("Output width in pixels (even); overrides resolution. With height too, the composition is letterboxed into that frame."),
  height: z.number().int().min(16).max(4096).optional().describe("Output height in pixels (even); overrides resolution."),
  fps: z.number().int().min(1).max(60).optional().describe("Frames per second; default the composition's (gif: at most 15)."),
  quality: z.enum(QUALITIES).default("standard").describe("Encoder effort and bitrate: draft (fastest), standard, high."),
  range: z.strictObject({
    start: z.number().min(0).max(600).default(0),
    length: z.number().positive().max(600),
  }).optional().describe("Renders `length` seconds from `start` instead of the whole composition."),
  poster_at: z.number().min(0).max(600).optional().describe("Second of the output the poster shows; default one third in."),
});
export type RenderOutput = z.output<typeof renderOutput>;

export const DEFAULT_OUTPUT: RenderOutput = renderOutput.parse({});

export type OutputKind = "video" | "audio" | "still";
export function outputKind(format: OutputFormat): OutputKind {
  return format === "mp3" || format === "wav" ? "audio" : format === "png" || format === "jpg" ? "still" : "video";
}

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);

/** The frame of a render: output size, and the composition's scaled area in it. */
export function resolveFrame(formatSize: { width: number; height: number }, output: RenderOutput): RenderFrame {
  const { width: W, height: H } = formatSize;
  if (output.width !== undefined && output.height !== undefined) {
    const scale = Math.min(output.width / W, output.height / H);
    const [width, height] = [even(output.width), even(output.height)];
    return { width, height, contentWidth: Math.min(width, even(W * scale)), contentHeight: Math.min(height, even(H * scale)), scale };
  }
  // "1080" is the format's own size (every format's shorter side is 1080).
  const named = output.resolution === "1080" ? 1 : SHORT_SIDE[output.resolution] / Math.min(W, H);
  const scale = output.width !== undefined ? output.width / W : output.height !== undefined ? output.height / H : named;
  const [width, height] = [even(W * scale), even(H * scale)];
  return { width, height, contentWidth: width, contentHeight: height, scale };
}

/** The seconds of the composition a render covers. */
export function resolveRange(duration: number, output: RenderOutput, fps: number): { start: number; end: number } {
  if (outputKind(output.format) === "still") {
    const at = Math.min(output.at ?? 0, Math.max(0, duration - 1 / fps));
    return { start: at, end: Math.min(duration, at + 1 / fps) };
  }
  if (!output.range) return { start: 0, end: duration };
  return { start: output.range.start, end: Math.min(duration, output.range.start + output.range.length) };
}

export function resolveFps(compositionFps: number, output: RenderOutput): number {
  return output.fps ?? (output.format === "gif" ? Math.min(compositionFps, 15) : compositionFps);
}

/** Issues of an output against its composition (paths under `output`), for a 422 at renders.create. */
export function outputIssues(output: RenderOutput, duration: number): { path: string; message: string; type: string }[] {
  const issues: { path: string; message: string; type: string }[] = [];
  if (output.range && output.range.start >= duration) issues.push({ path: "output.range.start", message: `Must be less than the composition's duration (${duration}).`, type: "number.max" });
  if (output.at !== undefined && output.at >= duration) issues.push({ path: "output.at", message: `Must be less than the composition's duration (${duration}).`, type: "number.max" });
  if (output.at !== undefined && outputKind(output.format) !== "still") issues.push({ path: "output.at", message: "Only a png or jpg output is a still at a time; use range for part of a video.", type: "object.unknown" });
  return issues;
}

export const CONTENT_TYPES: Record<OutputFormat, string> = {
  mp4: "video/mp4", webm: "video/webm", gif: "image/gif", mp3: "audio/mpeg", wav: "audio/wav", png: "image/png", jpg: "image/jpeg",
};
