// The quality report of a finished render, measured on the output file in one ffmpeg pass:
// integrated loudness and true peak (ebur128), black stretches (blackdetect), frozen stretches
// (freezedetect), silences longer than 2 s (silencedetect), the lengths of the picture and the
// sound and their drift (ffprobe), and warnings a person would want to hear about.
import type { MediaProbe } from "../media/probe.js";
import { runFfmpeg } from "../media/ffmpeg.js";

export interface Stretch {
  start: number;
  end: number;
}

export interface QualityReport {
  loudness_lufs: number | null;
  true_peak_dbtp: number | null;
  video_seconds: number | null;
  audio_seconds: number | null;
  drift_ms: number | null;
  black: Stretch[];
  frozen: Stretch[];
  silent: Stretch[];
  warnings: string[];
}

const round = (value: number, places = 3) => Math.round(value * 10 ** places) / 10 ** places;

/** Pairs `<key>_start: x` / `<key>_end: y` lines (an unclosed start runs to `end`). */
function stretches(log: string, startPattern: RegExp, endPattern: RegExp, end: number): Stretch[] {
  const events: { at: number; start: boolean; index: number }[] = [];
  for (const match of log.matchAll(startPattern)) events.push({ at: Number(match[1]), start: true, index: match.index });
  for (const match of log.matchAll(endPattern)) events.push({ at: Number(match[1]), start: false, index: match.index });
  events.sort((a, b) => a.index - b.index);
  const result: Stretch[] = [];
  let open: number | undefined;
  for (const event of events) {
    if (event.start) open = event.at;
    else if (open !== undefined) {
      result.push({ start: round(open), end: round(event.at) });
      open = undefined;
    }
  }
  if (open !== undefined && end > open) result.push({ start: round(open), end: round(end) });
  return result;
}

/** Reads ebur128's summary, and the detectors' lines, from ffmpeg's log. */
export function parseQualityLog(log: string, duration: number): Pick<QualityReport, "loudness_lufs" | "true_peak_dbtp" | "black" | "frozen" | "silent"> {
  const summary = log.slice(log.lastIndexOf("Summary:"));
  const integrated = /I:\s+(-?[\d.]+|-inf) LUFS/.exec(summary)?.[1];
  const peak = /True peak:\s+Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(summary)?.[1];
  const finite = (value: string | undefined) => (value === undefined || value === "-inf" || !Number.isFinite(Number(value)) ? null : Number(value));
  const black: Stretch[] = [...log.matchAll(/black_start:\s*([\d.]+)\s+black_end:\s*([\d.]+)/g)].map((match) => ({ start: round(Number(match[1])), end: round(Number(match[2])) }));
  return {
    loudness_lufs: finite(integrated),
    true_peak_dbtp: finite(peak),
    black,
    frozen: stretches(log, /freeze_start: ([\d.]+)/g, /freeze_end: ([\d.]+)/g, duration),
    silent: stretches(log, /silence_start: (-?[\d.]+)/g, /silence_end: ([\d.]+)/g, duration),
  };
}

export interface QualityInput {
  file: string;
  probe: MediaProbe;
  hasVideo: boolean;
  hasAudio: boolean;
  /** The loudness the render aimed at, when it normalised. */
  target?: { integrated: number; true_peak: number };
  fps: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export async function measureQuality(input: QualityInput): Promise<QualityReport> {
  const video = input.probe.streams.find((stream) => stream.codec_type === "video");
  const audio = input.probe.streams.find((stream) => stream.codec_type === "audio");
  const duration = input.probe.duration ?? video?.duration ?? audio?.duration ?? 0;
  const chains: string[] = [];
  const maps: string[] = [];
  if (input.hasVideo && video) {
    chains.push("[0:v]blackdetect=d=0.5:pix_th=0.1,freezedetect=n=0.003:d=2[qv]");
    maps.push("-map", "[qv]");
  }
  if (input.hasAudio && audio) {
    chains.push("[0:a]silencedetect=n=-50dB:d=2,ebur128=peak=true:framelog=verbose[qa]");
    maps.push("-map", "[qa]");
  }
  const log = chains.length === 0 ? "" : await runFfmpeg(
    ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "info", "-i", input.file, "-filter_complex", chains.join(";"), ...maps, "-f", "null", "-"],
    { timeoutMs: input.timeoutMs, signal: input.signal, stderrBytes: 1 << 20 },
  );
  const measured = parseQualityLog(log, duration);
  const videoSeconds = video ? round(video.duration ?? duration) : null;
  const audioSeconds = audio ? round(audio.duration ?? duration) : null;
  const drift = videoSeconds !== null && audioSeconds !== null ? Math.round(Math.abs(videoSeconds - audioSeconds) * 1000) : null;

  const warnings: string[] = [];
  const near = (a: number, b: number) => Math.abs(a - b) < 0.1;
  for (const stretch of measured.black) {
    const length = round(stretch.end - stretch.start, 1);
    if (near(stretch.start, 0) && near(stretch.end, duration)) warnings.push("The whole video is black.");
    else if (near(stretch.end, duration)) warnings.push(`The last ${length} s are black.`);
    else if (near(stretch.start, 0)) warnings.push(`The first ${length} s are black.`);
  }
  if (input.hasAudio && audio && measured.silent.some((stretch) => near(stretch.start, 0) && near(stretch.end, duration))) warnings.push("The whole sound track is silent.");
  else for (const stretch of measured.silent) warnings.push(`Silence from ${stretch.start} s to ${stretch.end} s.`);
  if (drift !== null && drift > 1000 / input.fps) warnings.push(`Picture and sound differ in length by ${drift} ms.`);
  if (input.target && measured.loudness_lufs !== null && Math.abs(measured.loudness_lufs - input.target.integrated) > 1) {
    warnings.push(`Loudness is ${measured.loudness_lufs} LUFS, ${round(Math.abs(measured.loudness_lufs - input.target.integrated), 1)} LU from the target ${input.target.integrated}.`);
  }
  if (measured.true_peak_dbtp !== null && measured.true_peak_dbtp > 0) warnings.push(`The sound clips: true peak ${measured.true_peak_dbtp} dBTP.`);
  return { ...measured, video_seconds: videoSeconds, audio_seconds: audioSeconds, drift_ms: drift, warnings };
}
