// The static library (assets.static_library) and the `backgrounds` shelf: media the service makes
// itself, so a fresh install has a shelf. At startup (src/service.ts) `seedStaticLibrary` draws
// each item once with ffmpeg (gradients, patterns and loops; overlays with transparency; short
// sounds), measures it (sharp for images, ffprobe for video and audio), stores it and its
// thumbnail in the file service under `static/library/`, writes a manifest of what it measured
// there, and upserts the background rows (no workspace: the shared shelf). Idempotent: files
// already stored are kept, rows are upserted by their fixed refs, so a restart (or two services
// starting together) changes nothing but the rows' long-lived signed links, re-signed for the
// current address. The action answers fresh signed links of its own.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import type { PrismaClient } from "../generated/prisma/client.js";
import { FFMPEG_PATH } from "../media/binaries.js";
import { probeMedia } from "../media/probe.js";
import { putBytes } from "../storage/storage.js";
import type { FileService } from "../storage/from-config.js";

const run = promisify(execFile);

export const CATEGORIES = ["backgrounds", "overlays", "sounds"] as const;
export type Category = (typeof CATEGORIES)[number];

export const LIBRARY_FOLDER = "static/library";
const MANIFEST_KEY = `${LIBRARY_FOLDER}/manifest.json`;
/** How long the links kept on background rows last; re-signed at every start. */
const ROW_LINK_SECONDS = 365 * 86_400;
const THUMBNAIL_WIDTH = 96;

interface ShelfItem {
  ref: string;
  category: Category;
  kind: "image" | "video" | "audio";
  name: string;
  description: string;
  tags: string[];
  orientation: "portrait" | "landscape" | "square" | null;
  is_loop: boolean;
  extension: "png" | "mp4" | "mp3";
  /** ffmpeg arguments between the binary and the output file. */
  ffmpeg: string[];
}

const lavfi = (graph: string) => ["-f", "lavfi", "-i", graph];
const still = (size: string, geq: string) => [...lavfi(`nullsrc=s=${size},format=gbrp,geq=${geq}`), "-frames:v", "1"];
const overlay = (size: string, geq: string) => [...lavfi(`nullsrc=s=${size},format=rgba,geq=${geq}`), "-frames:v", "1"];
const loop = (size: string, geq: string) => [...lavfi(`nullsrc=s=${size}:r=12:d=2,format=gbrp,geq=${geq}`), "-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "ultrafast", "-movflags", "+faststart"];
const sound = (graph: string, filters: string) => [...lavfi(graph), "-af", filters, "-ac", "1", "-c:a", "libmp3lame", "-b:a", "64k"];

export const SHELF: readonly ShelfItem[] = [
  { ref: "bg_shelf_dusk_gradient", category: "backgrounds", kind: "image", name: "Dusk gradient", description: "Violet to warm orange, top to bottom.", tags: ["gradient", "warm"], orientation: "portrait", is_loop: false, extension: "png", ffmpeg: still("360x640", "r='60+190*Y/H':g='40+90*Y/H':b='140-60*Y/H'") },
  { ref: "bg_shelf_ocean_gradient", category: "backgrounds", kind: "image", name: "Ocean gradient", description: "Deep blue to teal, left to right.", tags: ["gradient", "cool"], orientation: "landscape", is_loop: false, extension: "png", ffmpeg: still("640x360", "r='10+20*X/W':g='40+120*X/W':b='110+80*X/W'") },
  { ref: "bg_shelf_diagonal_stripes", category: "backgrounds", kind: "image", name: "Diagonal stripes", description: "Soft grey diagonal stripes.", tags: ["pattern", "neutral"], orientation: "square", is_loop: false, extension: "png", ffmpeg: still("480x480", "r='if(lt(mod(X+Y,48),24),232,246)':g='if(lt(mod(X+Y,48),24),232,246)':b='if(lt(mod(X+Y,48),24),236,250)'") },
  { ref: "bg_shelf_dot_grid", category: "backgrounds", kind: "image", name: "Dot grid", description: "Small light dots on navy.", tags: ["pattern", "dark"], orientation: "portrait", is_loop: false, extension: "png", ffmpeg: still("360x640", "r='if(lt(hypot(mod(X,24)-12,mod(Y,24)-12),3),200,20)':g='if(lt(hypot(mod(X,24)-12,mod(Y,24)-12),3),210,30)':b='if(lt(hypot(mod(X,24)-12,mod(Y,24)-12),3),230,60)'") },
  { ref: "bg_shelf_aurora_loop", category: "backgrounds", kind: "video", name: "Aurora loop", description: "Slow drifting colour bands; loops seamlessly every 2 seconds.", tags: ["loop", "gradient", "calm"], orientation: "portrait", is_loop: true, extension: "mp4", ffmpeg: loop("180x320", "r='70+60*sin(2*PI*(Y/H+T/2))':g='120+80*sin(2*PI*(X/W+Y/H-T/2))':b='170+60*cos(2*PI*(Y/H+T/2))'") },
  { ref: "bg_shelf_scanline_loop", category: "backgrounds", kind: "video", name: "Moving stripes loop", description: "Stripes gliding upward; loops seamlessly every 2 seconds.", tags: ["loop", "pattern"], orientation: "landscape", is_loop: true, extension: "mp4", ffmpeg: loop("320x180", "r='if(lt(mod(Y+T*45,45),22),40,28)':g='if(lt(mod(Y+T*45,45),22),44,30)':b='if(lt(mod(Y+T*45,45),22),70,48)'") },
  { ref: "ovl_shelf_vignette", category: "overlays", kind: "image", name: "Soft vignette", description: "Darkened edges, transparent centre (PNG with alpha).", tags: ["overlay", "vignette"], orientation: "portrait", is_loop: false, extension: "png", ffmpeg: overlay("360x640", "r=0:g=0:b=0:a='min(255,255*1.3*pow(hypot(X-W/2,Y-H/2)/hypot(W/2,H/2),2))'") },
  { ref: "ovl_shelf_light_leak", category: "overlays", kind: "image", name: "Light leak", description: "A warm glow from the top right corner (PNG with alpha).", tags: ["overlay", "warm"], orientation: "portrait", is_loop: false, extension: "png", ffmpeg: overlay("360x640", "r=255:g=170:b=90:a='210*exp(-pow((X-W)/(W*0.6),2)-pow(Y/(H*0.5),2))'") },
  { ref: "snd_shelf_chime", category: "sounds", kind: "audio", name: "Chime", description: "A single bright chime, 1 second.", tags: ["sound", "notification"], orientation: null, is_loop: false, extension: "mp3", ffmpeg: sound("sine=frequency=880:duration=1:sample_rate=44100", "afade=t=out:st=0.05:d=0.95") },
  { ref: "snd_shelf_whoosh", category: "sounds", kind: "audio", name: "Whoosh", description: "A soft transition whoosh, under a second.", tags: ["sound", "transition"], orientation: null, is_loop: false, extension: "mp3", ffmpeg: sound("anoisesrc=d=0.8:c=pink:a=0.4:r=44100", "lowpass=f=1800,afade=t=in:d=0.4,afade=t=out:st=0.4:d=0.4") },
  { ref: "snd_shelf_ambient_pad", category: "sounds", kind: "audio", name: "Ambient pad loop", description: "A quiet two-note pad; loops every 2 seconds.", tags: ["sound", "loop", "ambient"], orientation: null, is_loop: true, extension: "mp3", ffmpeg: sound("aevalsrc='0.15*sin(2*PI*220*t)+0.1*sin(2*PI*330*t)':d=2:s=44100", "volume=1") },
];

const CONTENT_TYPES = { png: "image/png", mp4: "video/mp4", mp3: "audio/mpeg" } as const;

/** What the seed measured of one item. */
export interface MeasuredItem {
  ref: string;
  key: string;
  thumbnail_key: string | null;
  content_type: string;
  size_bytes: number;
  width: number | null;
  height: number | null;
  duration_seconds: number | null;
}

export const itemKey = (item: ShelfItem) => `${LIBRARY_FOLDER}/${item.ref}.${item.extension}`;
const thumbnailKey = (item: ShelfItem) => (item.kind === "audio" ? null : `${LIBRARY_FOLDER}/${item.ref}.thumb.jpg`);

async function readAll(files: FileService, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await files.storage.open(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Draws, measures and stores one item and its thumbnail. */
async function makeItem(files: FileService, item: ShelfItem, dir: string): Promise<MeasuredItem> {
  const output = path.join(dir, `${item.ref}.${item.extension}`);
  await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-y", ...item.ffmpeg, output], { timeout: 60_000 });
  const data = await readFile(output);
  let width: number | null = null;
  let height: number | null = null;
  let duration: number | null = null;
  let frame: Buffer | undefined;
  if (item.kind === "image") {
    const meta = await sharp(data).metadata();
    width = meta.width ?? null;
    height = meta.height ?? null;
    frame = data;
  } else {
    const probe = await probeMedia(output);
    const video = probe.streams.find((stream) => stream.codec_type === "video");
    width = video?.width ?? null;
    height = video?.height ?? null;
    duration = probe.duration ?? null;
    if (item.kind === "video") {
      const still = path.join(dir, `${item.ref}.first.png`);
      await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-y", "-i", output, "-frames:v", "1", still], { timeout: 60_000 });
      frame = await readFile(still);
    }
  }
  const key = itemKey(item);
  const stored = await putBytes(files.storage, key, new Uint8Array(data), CONTENT_TYPES[item.extension]);
  const thumbKey = thumbnailKey(item);
  if (thumbKey && frame) {
    const thumbnail = await sharp(frame).resize({ width: THUMBNAIL_WIDTH }).flatten({ background: "#808080" }).jpeg({ quality: 80 }).toBuffer();
    await putBytes(files.storage, thumbKey, new Uint8Array(thumbnail), "image/jpeg");
  }
  return { ref: item.ref, key, thumbnail_key: thumbKey, content_type: stored.contentType, size_bytes: stored.size, width, height, duration_seconds: duration };
}

/** The manifest the seed wrote, or undefined when it is missing or stale. */
export async function readManifest(files: FileService): Promise<MeasuredItem[] | undefined> {
  if (!(await files.storage.stat(MANIFEST_KEY))) return undefined;
  const manifest = JSON.parse((await readAll(files, MANIFEST_KEY)).toString("utf8")) as MeasuredItem[];
  return SHELF.every((item) => manifest.some((entry) => entry.ref === item.ref && entry.key === itemKey(item))) ? manifest : undefined;
}

/**
 * Makes the shelf once (files, thumbnails, manifest) and upserts the background rows with links
 * signed for `baseUrl`. Safe to run at every start and from two processes at once.
 */
export async function seedStaticLibrary(prisma: PrismaClient, files: FileService, baseUrl: string): Promise<MeasuredItem[]> {
  let manifest = await readManifest(files);
  if (!manifest) {
    const dir = await mkdtemp(path.join(tmpdir(), "cutroom-shelf-"));
    try {
      manifest = await Promise.all(SHELF.map((item) => makeItem(files, item, dir)));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    await putBytes(files.storage, MANIFEST_KEY, new TextEncoder().encode(JSON.stringify(manifest)), "application/json");
  }
  const sign = (key: string) => files.signer.sign(baseUrl, key, ROW_LINK_SECONDS);
  for (const [order, item] of SHELF.filter((entry) => entry.category === "backgrounds").entries()) {
    const measured = manifest.find((entry) => entry.ref === item.ref)!;
    const row = {
      name: item.name,
      description: item.description,
      kind: item.kind,
      orientation: item.orientation ?? "portrait",
      category: item.tags[0] ?? null,
      tags: item.tags,
      is_loop: item.is_loop,
      sort_order: order,
      media_url: sign(measured.key),
      thumbnail_url: measured.thumbnail_key ? sign(measured.thumbnail_key) : null,
      width: measured.width,
      height: measured.height,
      duration_seconds: measured.duration_seconds,
    };
    try {
      await prisma.background.upsert({ where: { background_ref: item.ref }, create: { background_ref: item.ref, workspace_id: null, ...row }, update: row });
    } catch (error) {
      // Another process inserted it between the look and the write: its row is the same.
      if ((error as { code?: string }).code !== "P2002") throw error;
    }
  }
  return manifest;
}
