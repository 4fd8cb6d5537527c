// The versions of ffmpeg and ffprobe in use, checked when a process that renders starts: renders
// need ffmpeg 5.1 or later (xfade, loudnorm's two passes, amix normalize, a decoder set with years
// of security fixes). A missing or older binary stops the start with the fix in the message.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { FFMPEG_PATH, FFPROBE_PATH } from "./binaries.js";

const run = promisify(execFile);

export const MINIMUM_FFMPEG = [5, 1] as const;
const FIX = "Install Debian's ffmpeg (`apt-get install -y ffmpeg`), or point CUTROOM_FFMPEG_PATH and CUTROOM_FFPROBE_PATH at ffmpeg 5.1 or later.";

export interface MediaToolVersions {
  ffmpeg: string;
  ffprobe: string;
}

/** `ffmpeg version 5.1.9-0+deb12u1 …` → "5.1.9-0+deb12u1"; undefined when it is no version line. */
export function parseToolVersion(banner: string): string | undefined {
  return /^\S+ version (\S+)/m.exec(banner)?.[1];
}

/** True when a version string is at least 5.1 (a git build, "N-…", is taken as new enough). */
export function isSupportedVersion(version: string): boolean {
  if (/^N-|^git/i.test(version)) return true;
  const match = /^n?(\d+)\.(\d+)/.exec(version);
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > MINIMUM_FFMPEG[0] || (major === MINIMUM_FFMPEG[0] && minor >= MINIMUM_FFMPEG[1]);
}

async function versionOf(binary: string, name: string): Promise<string> {
  let stdout: string;
  try {
    ({ stdout } = await run(binary, ["-hide_banner", "-version"], { timeout: 10_000 }));
  } catch (error) {
    throw new Error(`${name} could not be run (${binary}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). ${FIX}`);
  }
  const version = parseToolVersion(stdout);
  if (!version) throw new Error(`${binary} did not print an ${name} version. ${FIX}`);
  if (!isSupportedVersion(version)) throw new Error(`${name} ${version} is too old: renders need ${MINIMUM_FFMPEG.join(".")} or later. ${FIX}`);
  return version;
}

/** The versions in use; throws an Error naming the fix when either is missing or older than 5.1. */
export async function checkMediaTools(): Promise<MediaToolVersions> {
  const ffmpeg = await versionOf(FFMPEG_PATH, "ffmpeg");
  return { ffmpeg, ffprobe: await versionOf(FFPROBE_PATH, "ffprobe") };
}
