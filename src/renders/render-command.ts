// The ffmpeg command of a render: the graph of a composition (./graph/build.ts) for the frame,
// frame rate and range the output asks for (./output-spec.ts), encoded to its format. Pure apart
// from what drawers prepare (rasterised shapes): it returns the arguments and the files to write,
// and runs nothing. The loudness of version 2 takes two runs: `loudness: "measure"` builds the
// first (sound only, loudnorm printing what it measured, no file), and the measured values go into
// the second, which makes the output.
import type { Composition } from "./composition.js";
import { num } from "./filter-values.js";
import { AUDIO_SAMPLE_RATE, loudnessTarget, type MeasuredLoudness } from "./graph/audio.js";
import { buildRenderGraph } from "./graph/build.js";
import { outputKind, resolveFps, resolveFrame, resolveRange, type RenderOutput } from "./output-spec.js";

export { escapeFilterValue } from "./filter-values.js";

export interface RenderCommandInput {
  composition: Composition;
  /** The picture size of the video's format (FORMAT_SIZES). */
  formatSize: { width: number; height: number };
  output: RenderOutput;
  /** Local file of each media `src`. */
  media: ReadonlyMap<string, string>;
  /** Absolute directory for the files; also a good cwd for ffmpeg. */
  workDir: string;
  outputPath: string;
  /** x264 preset of `standard` quality; default veryfast. */
  preset?: string;
  /** "measure": the first loudness pass; measured values: the output with them. */
  loudness?: "measure" | MeasuredLoudness;
  /**
   * A segment of a split render: frames [first, last) of the whole render's picture, encoded
   * alone (no sound) as exactly last − first frames, ready to be joined without re-encoding.
   */
  segment?: { first: number; last: number };
}

export interface RenderCommand {
  args: string[];
  /** Files the command reads, to be written before it runs. */
  files: { path: string; content: string | Uint8Array }[];
  /** Seconds of output. */
  duration: number;
}

/** True when this render normalises loudness, so it needs the measuring pass first. */
export function needsLoudnessPass(composition: Composition, output: RenderOutput): boolean {
  return loudnessTarget(composition) !== undefined && outputKind(output.format) !== "still" && output.format !== "gif";
}

/** Seconds between key frames at most (docs/renders.md, "Outputs"). */
export const KEYFRAME_SECONDS = 2;

function videoCodec(output: RenderOutput, preset: string, fps: number): string[] {
  // A key frame every 2 s: players seek quickly, and every seek of the output (poster, contact
  // sheet cells) decodes at most 2 s of frames instead of x264's default 250 frames (measured: a
  // 24-cell contact sheet of a 30-s 1080p video, 18.7 s → 7.2 s, for a file 1.6 % larger).
  const gop = String(Math.max(1, Math.round(fps * KEYFRAME_SECONDS)));
  if (output.format === "webm") {
    const [deadline, cpu, crf] = { draft: ["realtime", "8", "40"], standard: ["good", "4", "33"], high: ["good", "2", "28"] }[output.quality];
    return ["-c:v", "libvpx-vp9", "-deadline", deadline!, "-cpu-used", cpu!, "-crf", crf!, "-b:v", "0", "-row-mt", "1", "-g", gop, "-pix_fmt", "yuv420p"];
  }
  const [x264Preset, crf] = { draft: ["ultrafast", "28"], standard: [preset, "23"], high: ["medium", "18"] }[output.quality];
  return ["-c:v", "libx264", "-preset", x264Preset!, "-crf", crf!, "-g", gop, "-pix_fmt", "yuv420p"];
}

export function audioCodec(output: RenderOutput): string[] {
  const step = { draft: 0, standard: 1, high: 2 }[output.quality];
  switch (output.format) {
    case "webm": return ["-c:a", "libopus", "-b:a", ["64k", "128k", "160k"][step]!];
    case "mp3": return ["-c:a", "libmp3lame", "-b:a", ["128k", "192k", "256k"][step]!];
    case "wav": return ["-c:a", "pcm_s16le"];
    default: return ["-c:a", "aac", "-b:a", ["96k", "128k", "192k"][step]!];
  }
}

export async function buildRenderCommand(input: RenderCommandInput): Promise<RenderCommand> {
  const { composition, output } = input;
  const kind = outputKind(output.format);
  const fps = resolveFps(composition.fps, output);
  const segment = input.segment;
  const range = segment ? { start: segment.first / fps, end: segment.last / fps } : resolveRange(composition.duration, output, fps);
  const measuring = input.loudness === "measure";
  const withVideo = kind !== "audio" && !measuring;
  const withAudio = !segment && ((kind === "audio" || (kind === "video" && output.format !== "gif")) || measuring);
  const graph = await buildRenderGraph({
    composition, frame: resolveFrame(input.formatSize, output), fps, media: input.media, workDir: input.workDir, range,
    video: withVideo, audio: withAudio, loudness: input.loudness,
  });
  const chains = [graph.filter];
  const maps: string[] = [];
  if (graph.video) {
    const final = output.format === "gif"
      ? `[${graph.video}]split[gif_a][gif_b];[gif_a]palettegen=stats_mode=diff[gif_palette];[gif_b][gif_palette]paletteuse=dither=bayer:bayer_scale=3[final_v]`
      : `[${graph.video}]format=${output.format === "png" ? "rgb24" : output.format === "jpg" ? "yuvj420p" : "yuv420p"}[final_v]`;
    chains.push(final);
    maps.push("-map", "[final_v]");
  }
  if (graph.audio) maps.push("-map", `[${graph.audio}]`);

  const head = ["-hide_banner", "-nostdin", "-nostats", "-y", ...(measuring ? ["-loglevel", "info"] : ["-loglevel", "error"])];
  let encode: string[];
  if (measuring) encode = ["-f", "null", "-"];
  else if (segment) encode = [...videoCodec(output, input.preset ?? "veryfast", fps), "-an", "-frames:v", String(segment.last - segment.first), "-progress", "pipe:1", input.outputPath];
  else if (kind === "still") encode = ["-frames:v", "1", ...(output.format === "jpg" ? ["-q:v", "2"] : []), "-update", "1", input.outputPath];
  else {
    encode = [
      ...(graph.video && output.format !== "gif" ? videoCodec(output, input.preset ?? "veryfast", fps) : []),
      ...(graph.audio ? [...audioCodec(output), "-ar", String(AUDIO_SAMPLE_RATE), "-ac", "2"] : []),
      ...(output.format === "mp4" ? ["-movflags", "+faststart"] : []),
      ...(output.format === "gif" ? ["-loop", "0"] : []),
      "-t", num(graph.duration),
      "-progress", "pipe:1",
      input.outputPath,
    ];
  }
  const args = [...head, ...graph.inputs, "-filter_complex", chains.join(";"), ...maps, ...encode];
  return { args, files: graph.files, duration: graph.duration };
}
