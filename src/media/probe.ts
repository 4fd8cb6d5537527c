// ffprobe as a function: what a media file holds (duration, streams, picture size).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { FFPROBE_PATH } from "./binaries.js";

const run = promisify(execFile);

export interface ProbedStream {
  index: number;
  /** "video", "audio", "subtitle", "data", or another kind ffprobe names. */
  codec_type: string;
  codec_name?: string;
  width?: number;
  height?: number;
  /** Seconds, when the container says. */
  duration?: number;
  sample_rate?: number;
  channels?: number;
}

export interface MediaProbe {
  /** Seconds. */
  duration?: number;
  format_name?: string;
  size_bytes?: number;
  streams: ProbedStream[];
}

function number(value: unknown): number | undefined {
  const parsed = typeof value === "string" || typeof value === "number" ? Number(value) : NaN;
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** Reads a file's container and streams with ffprobe; rejects when ffprobe cannot read it. */
export async function probeMedia(file: string, timeoutMs = 30_000): Promise<MediaProbe> {
  const { stdout } = await run(
    FFPROBE_PATH,
    ["-v", "error", "-show_entries", "format=duration,format_name,size:stream=index,codec_type,codec_name,width,height,duration,sample_rate,channels", "-of", "json", file],
    { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 },
  );
  const parsed = JSON.parse(stdout) as { format?: Record<string, unknown>; streams?: Record<string, unknown>[] };
  return {
    duration: number(parsed.format?.duration),
    format_name: typeof parsed.format?.format_name === "string" ? parsed.format.format_name : undefined,
    size_bytes: number(parsed.format?.size),
    streams: (parsed.streams ?? []).map((stream) => ({
      index: Number(stream.index),
      codec_type: String(stream.codec_type),
      codec_name: typeof stream.codec_name === "string" ? stream.codec_name : undefined,
      width: number(stream.width),
      height: number(stream.height),
      duration: number(stream.duration),
      sample_rate: number(stream.sample_rate),
      channels: number(stream.channels),
    })),
  };
}
