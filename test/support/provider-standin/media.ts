// Real media for the stand-in's answers, made with the project's ffmpeg: PNGs (opaque, or with
// an alpha channel for cut-outs), WAV and MP3 tones, and H.264 + AAC MP4s. Files are cached by
// their parameters, so a suite asking for the same 2-second clip pays for ffmpeg once.
import { mkdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runFfmpeg } from "../../../src/media/ffmpeg.js";

const TIMEOUT_MS = 60_000;

export interface MediaFile {
  name: string;
  file: string;
  mediaType: string;
}

/** A tone's length rounded to tenths, so near-equal requests share a file. */
function tenths(seconds: number): number {
  return Math.max(0.1, Math.round(seconds * 10) / 10);
}

export class StandInMedia {
  private readonly made = new Map<string, Promise<MediaFile>>();

  private constructor(readonly dir: string) {}

  static async create(): Promise<StandInMedia> {
    const dir = path.join(os.tmpdir(), `cutroom-standin-${process.pid}-${Date.now().toString(36)}`);
    await mkdir(dir, { recursive: true });
    return new StandInMedia(dir);
  }

  private make(name: string, mediaType: string, args: (output: string) => string[]): Promise<MediaFile> {
    let pending = this.made.get(name);
    if (!pending) {
      const file = path.join(this.dir, name);
      pending = runFfmpeg(["-hide_banner", "-loglevel", "error", "-y", ...args(file)], { timeoutMs: TIMEOUT_MS }).then(() => ({ name, file, mediaType }));
      // A failed render is not cached: the next request tries again.
      pending.catch(() => this.made.delete(name));
      this.made.set(name, pending);
    }
    return pending;
  }

  /** An opaque PNG of one colour (the colour tells prompts apart). */
  png(width: number, height: number, colour = "3366cc"): Promise<MediaFile> {
    return this.make(`image-${width}x${height}-${colour}.png`, "image/png", (out) => ["-f", "lavfi", "-i", `color=c=0x${colour}:s=${width}x${height}`, "-frames:v", "1", out]);
  }

  /** A PNG with an alpha channel: a transparent background around an opaque box, like a cut-out. */
  cutoutPng(width: number, height: number): Promise<MediaFile> {
    return this.make(`cutout-${width}x${height}.png`, "image/png", (out) => [
      "-f", "lavfi", "-i", `color=c=black@0.0:s=${width}x${height},format=rgba`,
      "-vf", "drawbox=x=iw/4:y=ih/4:w=iw/2:h=ih/2:color=0xcc6633@1.0:t=fill",
      "-frames:v", "1", "-pix_fmt", "rgba", out,
    ]);
  }

  /** A 440 Hz tone (never silent), mono. */
  audio(seconds: number, format: "wav" | "mp3", sampleRate = 24_000): Promise<MediaFile> {
    const length = tenths(seconds);
    const codec = format === "wav" ? ["-c:a", "pcm_s16le"] : ["-c:a", "libmp3lame", "-b:a", "64k"];
    return this.make(`tone-${length}s-${sampleRate}.${format}`, format === "wav" ? "audio/wav" : "audio/mpeg", (out) => [
      "-f", "lavfi", "-i", `sine=frequency=440:sample_rate=${sampleRate}:duration=${length}`, "-ac", "1", ...codec, out,
    ]);
  }

  /** A test-pattern video with a tone: H.264 + AAC in MP4. */
  video(width: number, height: number, seconds: number): Promise<MediaFile> {
    const length = tenths(seconds);
    return this.make(`video-${width}x${height}-${length}s.mp4`, "video/mp4", (out) => [
      "-f", "lavfi", "-i", `testsrc=size=${width}x${height}:rate=24:duration=${length}`,
      "-f", "lavfi", "-i", `sine=frequency=330:sample_rate=44100:duration=${length}`,
      "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "64k",
      "-shortest", "-movflags", "+faststart", out,
    ]);
  }

  async bytes(file: MediaFile): Promise<Buffer> {
    return readFile(file.file);
  }

  /** A file made earlier, by name (what /media/{name} serves). */
  async byName(name: string): Promise<MediaFile | undefined> {
    return this.made.get(name);
  }

  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
