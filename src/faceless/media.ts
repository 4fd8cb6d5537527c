// The media of a scene, a slide or a timeline layer: a voice-over through the speech provider
// (espeak-ng offline by default), measured with ffprobe on the bytes themselves; a visual through
// the image provider (a still) or the video provider (a short clip, whose first frame is kept as
// the still a composition draws). Everything is stored through the file service under
// `faceless/<workspace>/<record>/…` and handed out by signed links only.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { ApiError } from "../errors/api-error.js";
import { runFfmpeg } from "../media/ffmpeg.js";
import { extensionFor } from "../providers/media-info.js";
import type { ProviderAccess } from "../providers/recording.js";
import type { Media } from "../providers/types.js";
import type { FileService } from "../storage/from-config.js";
import { putBytes } from "../storage/storage.js";
import { inScratch, measuredMs } from "../scripts/index.js";
import { LINK_SECONDS } from "./video.js";

/** Picture size asked of the image model for each video format (the frame's aspect). */
const IMAGE_SIZES: Record<string, string> = { portrait: "1024x1536", landscape: "1536x1024", square: "1024x1024" };
const ASPECTS: Record<string, string> = { portrait: "9:16", landscape: "16:9", square: "1:1" };
/** Seconds of a scene clip (the video models' shortest). */
export const CLIP_SECONDS = 5;

/** Voice settings a call may give (`voice_settings`); anything else in the object is ignored. */
export interface VoiceSettings {
  voice?: string;
  speed?: number;
  language?: string;
}

/** The voice settings of an object (a call's, or the video's stored `faceless_voice_settings`). */
export function voiceSettingsOf(...sources: unknown[]): VoiceSettings {
  const settings: VoiceSettings = {};
  for (const source of sources) {
    if (!source || typeof source !== "object" || Array.isArray(source)) continue;
    const value = source as Record<string, unknown>;
    if (typeof value.voice === "string" && value.voice) settings.voice = value.voice;
    else if (typeof value.voice_id === "string" && value.voice_id) settings.voice = value.voice_id;
    if (typeof value.speed === "number" && value.speed >= 0.5 && value.speed <= 2) settings.speed = value.speed;
    if (typeof value.language === "string" && value.language) settings.language = value.language;
  }
  return settings;
}

async function store(files: FileService, key: string, media: Media) {
  await putBytes(files.storage, key, media.data, media.mediaType);
  return { key, url: files.signedUrl(key, LINK_SECONDS), content_type: media.mediaType };
}

/** Voices `text` and stores it under `<base>.<ext>`; its length is measured by ffprobe. */
export async function voiceText(providers: ProviderAccess, files: FileService, base: string, text: string, settings: VoiceSettings, signal?: AbortSignal) {
  const result = await providers.get("speech").synthesize({ text, voice: settings.voice, speed: settings.speed, language: settings.language }, { signal });
  const durationMs = await measuredMs(result.audio.data, result.audio.mediaType);
  if (durationMs <= 0) throw new ApiError("upstream_error", "The voice answered an empty recording.");
  const stored = await store(files, `${base}.${extensionFor(result.audio.mediaType)}`, result.audio);
  return { ...stored, duration_ms: durationMs, model: `${result.meta.provider}/${result.meta.model}`, voice: settings.voice ?? null };
}

/** A still from the image model, at the format's aspect, stored under `<base>.<ext>`. */
export async function drawStill(providers: ProviderAccess, files: FileService, base: string, prompt: string, format: string, signal?: AbortSignal) {
  const result = await providers.get("image").generate({ prompt, size: IMAGE_SIZES[format] ?? IMAGE_SIZES.landscape, n: 1 }, { signal });
  const image = result.images[0];
  if (!image) throw new ApiError("upstream_error", "The image model answered no image.");
  const stored = await store(files, `${base}.${extensionFor(image.mediaType)}`, image);
  return { ...stored, kind: "image" as const, model: `${result.meta.provider}/${result.meta.model}`, prompt, poster: stored, duration_ms: null };
}

/** The first frame of a clip, as a PNG. */
async function firstFrame(clip: Media): Promise<Media> {
  return inScratch(async (dir) => {
    const input = path.join(dir, `clip.${extensionFor(clip.mediaType)}`);
    const output = path.join(dir, "frame.png");
    await writeFile(input, clip.data);
    await runFfmpeg(["-hide_banner", "-nostdin", "-y", "-i", input, "-frames:v", "1", output], { timeoutMs: 60_000 });
    return { data: new Uint8Array(await readFile(output)), mediaType: "image/png" };
  });
}

interface ClipOptions {
  signal?: AbortSignal;
  resume?: string;
  onSubmitted?: (requestId: string) => Promise<void>;
  onProgress?: (percent: number) => void;
}

/** A short clip from the video model, stored with its first frame; its length measured by ffprobe. */
export async function filmClip(providers: ProviderAccess, files: FileService, base: string, prompt: string, format: string, options: ClipOptions) {
  const result = await providers.get("video").run({ prompt, durationSeconds: CLIP_SECONDS, aspectRatio: ASPECTS[format] ?? ASPECTS.landscape }, options);
  const clip = result.outputs[0];
  if (!clip) throw new ApiError("upstream_error", "The video model answered no clip.");
  const durationMs = await measuredMs(clip.data, clip.mediaType);
  const stored = await store(files, `${base}.${extensionFor(clip.mediaType)}`, clip);
  const poster = await store(files, `${base}-poster.png`, await firstFrame(clip));
  return { ...stored, kind: "video" as const, model: `${result.meta.provider}/${result.meta.model}`, prompt, poster, duration_ms: durationMs };
}
