// Reading renders back for tests: a frame's pixels (whole or a region) as mean colours, loudness by
// ebur128, and the level of one frequency band. Real ffmpeg on real output files.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { FFMPEG_PATH } from "../../src/media/binaries.js";

const run = promisify(execFile);

/** Mean red, green, blue of the frame at `seconds` (or of a crop `w:h:x:y` of it). */
export async function meanColour(file: string, seconds: number, crop?: string): Promise<[number, number, number]> {
  const { stdout } = await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-ss", String(seconds), "-i", file, "-frames:v", "1", ...(crop ? ["-vf", `crop=${crop}`] : []), "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], { encoding: "buffer", maxBuffer: 64 << 20 });
  const pixels = stdout as unknown as Buffer;
  const sums = [0, 0, 0];
  for (let index = 0; index < pixels.length; index++) sums[index % 3]! += pixels[index]!;
  const count = pixels.length / 3;
  return sums.map((sum) => Math.round(sum / count)) as [number, number, number];
}

/** True when two colours are within `tolerance` on every channel. */
export function near(a: readonly number[], b: readonly number[], tolerance = 30): boolean {
  return a.every((value, index) => Math.abs(value - b[index]!) <= tolerance);
}

/** Integrated loudness (LUFS) and true peak (dBTP) of a file's sound, measured by ebur128. */
export async function loudness(file: string, from?: number, to?: number): Promise<{ integrated: number; truePeak: number }> {
  const trim = from === undefined ? "" : `atrim=${from}:${to},`;
  const { stderr } = await run(FFMPEG_PATH, ["-hide_banner", "-nostats", "-i", file, "-af", `${trim}ebur128=peak=true:framelog=verbose`, "-f", "null", "-"], { maxBuffer: 16 << 20 });
  const summary = stderr.slice(stderr.lastIndexOf("Summary:"));
  return { integrated: Number(/I:\s+(-?[\d.]+) LUFS/.exec(summary)?.[1]), truePeak: Number(/Peak:\s+(-?[\d.]+) dBFS/.exec(summary)?.[1]) };
}

/** RMS level (dBFS) of the sound between two seconds, after a band-pass around `frequency`. */
export async function bandLevel(file: string, frequency: number, from: number, to: number): Promise<number> {
  const { stderr } = await run(FFMPEG_PATH, ["-hide_banner", "-nostats", "-i", file, "-af", `atrim=${from}:${to},bandpass=f=${frequency}:width_type=q:w=8,bandpass=f=${frequency}:width_type=q:w=8,astats=metadata=0`, "-f", "null", "-"], { maxBuffer: 16 << 20 });
  const level = /Overall[\s\S]*?RMS level dB:\s*(-?[\d.]+|-inf)/.exec(stderr)?.[1];
  return level === "-inf" ? Number.NEGATIVE_INFINITY : Number(level);
}

/** Mean absolute difference, per byte, of two same-sized raw frames (0 = identical, 255 = opposite). */
export function meanDifference(a: Buffer, b: Buffer): number {
  if (a.length !== b.length) throw new Error(`frames of different sizes: ${a.length} and ${b.length} bytes`);
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += Math.abs(a[index]! - b[index]!);
  return sum / a.length;
}
