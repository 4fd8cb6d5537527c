// Video bytes checked and joined with the local tools: ffprobe says whether a produced file is a
// playable video (and its size and length), ffmpeg takes a clip's last frame (the first frame of
// the segment that extends it) and joins two clips end to end. Used by the AI video operation.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { runFfmpeg } from "../media/ffmpeg.js";
import { probeMedia, type MediaProbe } from "../media/probe.js";
import { withScratchDir } from "../providers/media-info.js";
import type { Media, MediaOutput } from "../providers/types.js";

/** ffmpeg steps on short clips; a hung one is killed. */
const FFMPEG_TIMEOUT_MS = 5 * 60_000;

export interface VideoFacts {
  width: number;
  height: number;
  durationSeconds: number;
  hasAudio: boolean;
}

function factsOf(probe: MediaProbe): VideoFacts | undefined {
  const video = probe.streams.find((stream) => stream.codec_type === "video");
  const duration = probe.duration ?? video?.duration;
  if (!video?.width || !video.height || !duration || duration <= 0) return undefined;
  return { width: video.width, height: video.height, durationSeconds: Math.round(duration * 1000) / 1000, hasAudio: probe.streams.some((stream) => stream.codec_type === "audio") };
}

/** What ffprobe reads in a file's bytes, or undefined when they are no playable video. */
export async function probeVideo(bytes: Uint8Array, workDir: string): Promise<VideoFacts | undefined> {
  return withScratchDir(workDir, async (dir) => {
    const file = path.join(dir, "clip.mp4");
    await writeFile(file, bytes);
    try {
      return factsOf(await probeMedia(file));
    } catch {
      return undefined;
    }
  });
}

/** The last frame of a clip, as a PNG. */
export async function lastFrame(video: Uint8Array, workDir: string, signal?: AbortSignal): Promise<Media> {
  return withScratchDir(workDir, async (dir) => {
    await writeFile(path.join(dir, "source.mp4"), video);
    // Reads the final second and keeps overwriting one picture: what remains is the last frame.
    await runFfmpeg(["-hide_banner", "-loglevel", "error", "-nostats", "-y", "-sseof", "-1", "-i", "source.mp4", "-update", "1", "-an", "-c:v", "png", "last.png"], { cwd: dir, timeoutMs: FFMPEG_TIMEOUT_MS, signal });
    return { data: new Uint8Array(await readFile(path.join(dir, "last.png"))), mediaType: "image/png" };
  });
}

/**
 * The two clips end to end, as one H.264 MP4 in the first clip's picture size (the second is
 * scaled and padded to it). Sound is kept when both clips have some; otherwise the join is silent
 * rather than half silent.
 */
export async function joinClips(first: Uint8Array, second: Uint8Array, workDir: string, signal?: AbortSignal): Promise<MediaOutput> {
  return withScratchDir(workDir, async (dir) => {
    await writeFile(path.join(dir, "a.mp4"), first);
    await writeFile(path.join(dir, "b.mp4"), second);
    const [a, b] = [factsOf(await probeMedia(path.join(dir, "a.mp4"))), factsOf(await probeMedia(path.join(dir, "b.mp4")))];
    if (!a || !b) throw new Error("A clip to join is no playable video.");
    const width = a.width - (a.width % 2);
    const height = a.height - (a.height % 2);
    const fit = `scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=24,format=yuv420p`;
    const sound = a.hasAudio && b.hasAudio;
    const audio = (input: number) => `[${input}:a]aresample=44100,aformat=channel_layouts=stereo[s${input}]`;
    const graph = [`[0:v]${fit}[v0]`, `[1:v]${fit}[v1]`, ...(sound ? [audio(0), audio(1), "[v0][s0][v1][s1]concat=n=2:v=1:a=1[v][s]"] : ["[v0][v1]concat=n=2:v=1:a=0[v]"])].join(";");
    await runFfmpeg(
      ["-hide_banner", "-loglevel", "error", "-nostats", "-y", "-i", "a.mp4", "-i", "b.mp4", "-filter_complex", graph, "-map", "[v]", ...(sound ? ["-map", "[s]", "-c:a", "aac", "-b:a", "128k"] : ["-an"]),
        "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-progress", "pipe:1", "joined.mp4"],
      { cwd: dir, timeoutMs: FFMPEG_TIMEOUT_MS, signal },
    );
    const data = new Uint8Array(await readFile(path.join(dir, "joined.mp4")));
    return { data, mediaType: "video/mp4" };
  });
}
