// What tests use to check media and wire a registry to the stand-in. The media readers here are
// the tests' own (PNG and WAV headers, ffprobe on a scratch copy), independent of the code under
// test, so a bug in src/providers/media-info.ts cannot hide itself.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../../../src/config.js";
import { probeMedia, type MediaProbe } from "../../../src/media/probe.js";
import { OutboundGuard } from "../../../src/outbound/url-guard.js";
import { createProviders, type ProviderRegistry } from "../../../src/providers/registry.js";
import type { ProviderStandIn } from "./index.js";

/** A registry on the stand-in's env plus `extra`, with a guard that allows loopback. */
export function standInProviders(standIn: ProviderStandIn, extra: Record<string, string> = {}): ProviderRegistry {
  const config = loadConfig({ ...standIn.env(), ...extra });
  return createProviders(config.providers, { outbound: new OutboundGuard({ allow: config.outboundAllow }) });
}

/** ffprobe of some bytes, via a scratch file. */
export async function probeBytes(bytes: Uint8Array, extension: string): Promise<MediaProbe> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "cutroom-probe-"));
  try {
    const file = path.join(dir, `media.${extension}`);
    await writeFile(file, bytes);
    return await probeMedia(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface PngHeader {
  width: number;
  height: number;
  /** 2 RGB, 6 RGBA, … */
  colourType: number;
}

export function readPng(bytes: Uint8Array): PngHeader {
  const buffer = Buffer.from(bytes);
  if (buffer.subarray(0, 8).toString("hex") !== "89504e470d0a1a0a") throw new Error("not a PNG");
  return { width: buffer.readUInt32BE(16), height: buffer.readUInt32BE(20), colourType: buffer[25]! };
}

export interface WavContents {
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  samples: Int16Array;
  durationSeconds: number;
}

/** A 16-bit PCM WAV, decoded. */
export function readWav(bytes: Uint8Array): WavContents {
  const buffer = Buffer.from(bytes);
  if (buffer.toString("latin1", 0, 4) !== "RIFF" || buffer.toString("latin1", 8, 12) !== "WAVE") throw new Error("not a WAV");
  let offset = 12;
  let fmt: Omit<WavContents, "samples" | "durationSeconds"> | undefined;
  while (offset + 8 <= buffer.length) {
    const id = buffer.toString("latin1", offset, offset + 4);
    const size = buffer.readUInt32LE(offset + 4);
    if (id === "fmt ") fmt = { format: buffer.readUInt16LE(offset + 8), channels: buffer.readUInt16LE(offset + 10), sampleRate: buffer.readUInt32LE(offset + 12), bitsPerSample: buffer.readUInt16LE(offset + 22) };
    if (id === "data" && fmt) {
      const length = Math.min(size, buffer.length - offset - 8);
      const data = buffer.subarray(offset + 8, offset + 8 + length - (length % 2));
      const samples = new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.length));
      return { ...fmt, samples, durationSeconds: samples.length / fmt.channels / fmt.sampleRate };
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error("WAV without fmt/data");
}

/** The loudest sample, to tell speech from silence. */
export function peak(samples: Int16Array): number {
  let max = 0;
  for (const sample of samples) max = Math.max(max, Math.abs(sample));
  return max;
}
