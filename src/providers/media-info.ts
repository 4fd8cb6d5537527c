// Facts about media bytes a provider returned: their type from the magic bytes, a PNG's size, a
// WAV's layout and length, and (for anything else) ffprobe on a scratch copy. Results carry these
// so a caller can bill seconds and lay media out without probing again.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { probeMedia } from "../media/probe.js";

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return Buffer.from(bytes.subarray(start, start + length)).toString("latin1");
}

/** The MIME type the bytes' signature says, or undefined. */
export function sniffMediaType(bytes: Uint8Array): string | undefined {
  if (bytes.length < 12) return undefined;
  if (bytes[0] === 0x89 && ascii(bytes, 1, 3) === "PNG") return "image/png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return "image/webp";
  if (ascii(bytes, 0, 4) === "GIF8") return "image/gif";
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WAVE") return "audio/wav";
  if (ascii(bytes, 0, 3) === "ID3" || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0)) return "audio/mpeg";
  if (ascii(bytes, 0, 4) === "OggS") return "audio/ogg";
  if (ascii(bytes, 0, 4) === "fLaC") return "audio/flac";
  if (ascii(bytes, 4, 4) === "ftyp") return ascii(bytes, 8, 3) === "M4A" ? "audio/mp4" : "video/mp4";
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return "video/webm";
  return undefined;
}

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/ogg": "ogg",
  "audio/flac": "flac",
  "audio/mp4": "m4a",
  "video/mp4": "mp4",
  "video/webm": "webm",
  "video/quicktime": "mov",
};

/** A file extension for a MIME type (`bin` when unknown). */
export function extensionFor(mediaType: string): string {
  return EXTENSIONS[mediaType.split(";")[0]!.trim().toLowerCase()] ?? "bin";
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (sniffMediaType(bytes) !== "image/png" || bytes.length < 24 || ascii(bytes, 12, 4) !== "IHDR") return undefined;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
}

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Offset and length of the sample data. */
  dataOffset: number;
  dataBytes: number;
  durationSeconds: number;
}

/** Reads a RIFF/WAVE header, walking its chunks (fmt may not come first; data may be followed by others). */
export function wavInfo(bytes: Uint8Array): WavInfo | undefined {
  if (sniffMediaType(bytes) !== "audio/wav") return undefined;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 12;
  let format: Pick<WavInfo, "sampleRate" | "channels" | "bitsPerSample"> | undefined;
  while (offset + 8 <= view.length) {
    const id = view.toString("latin1", offset, offset + 4);
    const size = view.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt " && body + 16 <= view.length) {
      format = { channels: view.readUInt16LE(body + 2), sampleRate: view.readUInt32LE(body + 4), bitsPerSample: view.readUInt16LE(body + 14) };
    } else if (id === "data" && format) {
      // Streamed WAVs write 0 or 0xFFFFFFFF as the size: the data then runs to the end.
      const dataBytes = size === 0 || size === 0xffffffff || body + size > view.length ? view.length - body : size;
      const bytesPerSecond = format.sampleRate * format.channels * (format.bitsPerSample / 8);
      return { ...format, dataOffset: body, dataBytes, durationSeconds: bytesPerSecond > 0 ? dataBytes / bytesPerSecond : 0 };
    }
    offset = body + size + (size % 2);
  }
  return undefined;
}

/** Wraps raw little-endian PCM in a WAV header. */
export function wavFromPcm(pcm: Uint8Array, sampleRate: number, channels = 1, bitsPerSample = 16): Uint8Array {
  const header = Buffer.alloc(44);
  const blockAlign = channels * (bitsPerSample / 8);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write("WAVE", 8, "latin1");
  header.write("fmt ", 12, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(bitsPerSample, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(pcm.length, 40);
  return new Uint8Array(Buffer.concat([header, pcm]));
}

/** A scratch directory under workDir, removed after `use` finishes. */
export async function withScratchDir<T>(workDir: string, use: (dir: string) => Promise<T>): Promise<T> {
  const root = workDir || os.tmpdir();
  await mkdir(root, { recursive: true });
  const dir = await mkdtemp(path.join(root, "call-"));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface MediaFacts {
  durationSeconds?: number;
  width?: number;
  height?: number;
}

function rounded(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/**
 * Length and picture size of produced media: from the header where that is enough (PNG, WAV),
 * otherwise ffprobe on a scratch copy. Facts it cannot learn are left out, never guessed.
 */
export async function mediaFacts(bytes: Uint8Array, mediaType: string, workDir: string): Promise<MediaFacts> {
  const png = pngSize(bytes);
  if (png) return png;
  const wav = wavInfo(bytes);
  if (wav) return { durationSeconds: rounded(wav.durationSeconds) };
  if (!/^(audio|video|image)\//.test(mediaType)) return {};
  try {
    return await withScratchDir(workDir, async (dir) => {
      const file = path.join(dir, `media.${extensionFor(mediaType)}`);
      await writeFile(file, bytes);
      const probe = await probeMedia(file);
      const video = probe.streams.find((stream) => stream.codec_type === "video");
      return {
        ...(probe.duration !== undefined && !mediaType.startsWith("image/") && { durationSeconds: rounded(probe.duration) }),
        ...(video?.width !== undefined && { width: video.width }),
        ...(video?.height !== undefined && { height: video.height }),
      };
    });
  } catch {
    return {};
  }
}

/** Bytes of a `data:` URI, with its MIME type. */
export function decodeDataUri(uri: string): { data: Uint8Array; mediaType: string } | undefined {
  const match = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(uri);
  if (!match) return undefined;
  const data = match[2] ? Buffer.from(match[3]!, "base64") : Buffer.from(decodeURIComponent(match[3]!), "utf8");
  return { data: new Uint8Array(data), mediaType: match[1] || "application/octet-stream" };
}

/** A `data:` URI of some bytes, the form fal and OpenAI accept for inline media. */
export function dataUri(data: Uint8Array, mediaType: string): string {
  return `data:${mediaType};base64,${Buffer.from(data).toString("base64")}`;
}
