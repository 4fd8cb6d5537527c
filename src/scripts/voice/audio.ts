// Audio of takes on disk: a take's length measured by ffprobe on the file itself (not trusted
// from a provider's header), its bytes read back from storage, and several takes joined into one
// file with ffmpeg's concat filter (scripts.listen). Scratch files live in a directory removed
// when the work ends.
import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runFfmpeg } from "../../media/ffmpeg.js";
import { probeMedia } from "../../media/probe.js";
import { extensionFor, withScratchDir } from "../../providers/media-info.js";
import type { Storage } from "../../storage/storage.js";

/** Runs `use` in a fresh scratch directory under the system's temporary folder, removed afterwards. */
export const inScratch = <T>(use: (dir: string) => Promise<T>): Promise<T> => withScratchDir(os.tmpdir(), use);

/** Length of an audio file in milliseconds, measured by ffprobe. */
export async function measuredMs(bytes: Uint8Array, mediaType: string): Promise<number> {
  return inScratch(async (dir) => {
    const file = path.join(dir, `take.${extensionFor(mediaType)}`);
    await writeFile(file, bytes);
    const probe = await probeMedia(file);
    const audio = probe.streams.find((stream) => stream.codec_type === "audio");
    const seconds = probe.duration ?? audio?.duration;
    if (seconds === undefined) throw new Error("ffprobe found no duration in the take");
    return Math.round(seconds * 1000);
  });
}

/** The bytes stored under a key. */
export async function readStored(storage: Storage, key: string): Promise<Buffer> {
  const stream = await storage.open(key);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/**
 * Several audio files joined end to end into one WAV (44.1 kHz mono, 16-bit): each input is
 * resampled to the same format first, so takes of different voices and providers join cleanly.
 */
export async function joinAudio(parts: readonly { data: Uint8Array; mediaType: string }[]): Promise<Uint8Array> {
  return inScratch(async (dir) => {
    const inputs: string[] = [];
    for (const [index, part] of parts.entries()) {
      const file = path.join(dir, `part-${index}.${extensionFor(part.mediaType)}`);
      await writeFile(file, part.data);
      inputs.push("-i", file);
    }
    const resampled = parts.map((_, index) => `[${index}:a]aresample=44100,aformat=sample_fmts=s16:channel_layouts=mono[a${index}]`).join(";");
    const joined = `${parts.map((_, index) => `[a${index}]`).join("")}concat=n=${parts.length}:v=0:a=1[out]`;
    const output = path.join(dir, "joined.wav");
    await runFfmpeg(["-hide_banner", "-nostdin", "-y", ...inputs, "-filter_complex", `${resampled};${joined}`, "-map", "[out]", "-c:a", "pcm_s16le", output], { timeoutMs: 60_000 });
    return new Uint8Array(await readFile(output));
  });
}

/**
 * Audio played at a rate (0.75 to 3) as a new WAV, pitch kept (ffmpeg's atempo, chained because
 * one atempo stage takes 0.5 to 2).
 */
export async function retimed(bytes: Uint8Array, mediaType: string, rate: number): Promise<Uint8Array> {
  const stages: string[] = [];
  let rest = rate;
  while (rest > 2) {
    stages.push("atempo=2");
    rest /= 2;
  }
  stages.push(`atempo=${rest.toFixed(6)}`);
  return inScratch(async (dir) => {
    const input = path.join(dir, `in.${extensionFor(mediaType)}`);
    const output = path.join(dir, "out.wav");
    await writeFile(input, bytes);
    await runFfmpeg(["-hide_banner", "-nostdin", "-y", "-i", input, "-filter:a", stages.join(","), "-c:a", "pcm_s16le", output], { timeoutMs: 60_000 });
    return new Uint8Array(await readFile(output));
  });
}
