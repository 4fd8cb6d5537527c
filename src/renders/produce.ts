// The work of one render attempt after its media is local: the loudness pass when the composition
// normalises, the encoding run (progress reported), the checks on what came out, the poster,
// thumbnail and contact sheet of a video, and the quality report. Returns the files to store.
import path from "node:path";
import { writeFile } from "node:fs/promises";
import { runFfmpeg } from "../media/ffmpeg.js";
import { probeMedia, type MediaProbe } from "../media/probe.js";
import type { Composition } from "./composition.js";
import { makeDerivatives } from "./derivatives.js";
import { loudnessTarget, parseLoudnormJson, type MeasuredLoudness } from "./graph/audio.js";
import { CONTENT_TYPES, outputKind, resolveFps, resolveFrame, resolveRange, type RenderOutput } from "./output-spec.js";
import { measureQuality, type QualityReport } from "./quality.js";
import { buildRenderCommand, needsLoudnessPass } from "./render-command.js";
import { RenderFailure } from "./render-failure.js";
import { RenderPhases } from "./phases.js";

export interface ProducedFile {
  kind: "video" | "audio" | "still" | "poster" | "thumbnail" | "contact_sheet";
  path: string;
  /** Appended to the render's storage key: ".mp4", "-poster.jpg" … */
  suffix: string;
  content_type: string;
  width: number | null;
  height: number | null;
}

export interface Produced {
  files: ProducedFile[];
  duration_seconds: number;
  quality: QualityReport | null;
}

export interface ProduceInput {
  composition: Composition;
  formatSize: { width: number; height: number };
  output: RenderOutput;
  media: ReadonlyMap<string, string>;
  workDir: string;
  preset: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Percent 0–100 of the encoding run. */
  progress(percent: number): void;
  /** Where the time goes (logged with the render); a fresh recorder when absent. */
  phases?: RenderPhases;
}

export async function writeFiles(files: { path: string; content: string | Uint8Array }[]): Promise<void> {
  for (const file of files) await writeFile(file.path, file.content);
}

export async function produceRender(input: ProduceInput): Promise<Produced> {
  const { composition, output, workDir } = input;
  const base = { composition, formatSize: input.formatSize, output, media: input.media, workDir, preset: input.preset };
  const run = { cwd: workDir, timeoutMs: input.timeoutMs, signal: input.signal };

  const phases = input.phases ?? new RenderPhases();

  let measured: MeasuredLoudness | undefined;
  if (needsLoudnessPass(composition, output)) {
    measured = await phases.time("loudness", async () => {
      const pass = await buildRenderCommand({ ...base, outputPath: "-", loudness: "measure" });
      await writeFiles(pass.files);
      return parseLoudnormJson(await runFfmpeg(pass.args, run));
    });
  }
  const outputPath = path.join(workDir, `output.${output.format}`);
  const duration = await phases.time("encode", async () => {
    const command = await buildRenderCommand({ ...base, outputPath, loudness: measured });
    await writeFiles(command.files);
    await runFfmpeg(command.args, { ...run, onProgress: (seconds) => input.progress((seconds / command.duration) * 100) });
    return command.duration;
  });
  return finishRender({ ...input, phases }, outputPath, { duration, measured });
}

/**
 * What follows the encoding of an output, whole or joined from segments: the checks on what came
 * out, the poster, thumbnail and contact sheet of a video, and the quality report.
 */
export async function finishRender(input: Omit<ProduceInput, "progress" | "preset">, outputPath: string, encoded: { duration: number; measured?: MeasuredLoudness }): Promise<Produced> {
  const { composition, output, workDir } = input;
  const phases = input.phases ?? new RenderPhases();
  const kind = outputKind(output.format);
  const measured = encoded.measured;

  let probe: MediaProbe;
  try {
    probe = await probeMedia(outputPath);
  } catch {
    throw new RenderFailure("ffmpeg_failed", "The output could not be read back.");
  }
  const video = probe.streams.find((stream) => stream.codec_type === "video");
  const audio = probe.streams.find((stream) => stream.codec_type === "audio");
  const wantsAudio = kind === "audio" || (kind === "video" && output.format !== "gif");
  if ((kind !== "audio" && !video) || (wantsAudio && !audio)) {
    throw new RenderFailure("ffmpeg_failed", `The output lacks ${!video && kind !== "audio" ? "a video" : "an audio"} stream.`);
  }
  const main: ProducedFile = {
    kind: kind === "audio" ? "audio" : kind === "still" ? "still" : "video",
    path: outputPath,
    suffix: `.${output.format}`,
    content_type: CONTENT_TYPES[output.format],
    width: video?.width ?? null,
    height: video?.height ?? null,
  };
  const duration = kind === "still" ? 0 : Math.round((probe.duration ?? encoded.duration) * 1000) / 1000;
  const files: ProducedFile[] = [main];

  if (kind === "video") {
    const fps = resolveFps(composition.fps, output);
    const range = resolveRange(composition.duration, output, fps);
    const frame = resolveFrame(input.formatSize, output);
    const length = range.end - range.start;
    const derivatives = await phases.time("derivatives", () => makeDerivatives({
      outputPath, workDir, composition, range, frame, posterAt: output.poster_at ?? length / 3, timeoutMs: input.timeoutMs, signal: input.signal,
    }));
    for (const derivative of derivatives) {
      const picture = (await probeMedia(derivative.path)).streams[0];
      const suffix = { poster: "-poster.jpg", thumbnail: "-thumbnail.jpg", contact_sheet: "-contact-sheet.png" }[derivative.kind];
      files.push({ kind: derivative.kind, path: derivative.path, suffix, content_type: derivative.content_type, width: picture?.width ?? null, height: picture?.height ?? null });
    }
  }

  const quality = kind === "still" ? null : await phases.time("quality", () => measureQuality({
    file: outputPath, probe, hasVideo: Boolean(video), hasAudio: Boolean(audio),
    target: measured ? loudnessTarget(composition) : undefined, fps: resolveFps(composition.fps, output), timeoutMs: input.timeoutMs, signal: input.signal,
  }));
  return { files, duration_seconds: duration, quality };
}
