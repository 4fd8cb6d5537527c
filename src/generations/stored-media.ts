// Where generated media is kept: bytes a provider returned go to storage under the workspace and
// the generation (`generations/<workspace>/<generation>/<n>.<ext>`) and are handed out by signed
// links only (/files/…, served with the type of the extension).
import { putBytes } from "../storage/storage.js";
import type { FileService } from "../storage/from-config.js";
import type { MediaOutput } from "../providers/types.js";

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/mp4": "m4a",
  "video/mp4": "mp4",
  "video/webm": "webm",
};

export function extensionOf(mediaType: string): string {
  const extension = EXTENSIONS[mediaType.split(";")[0]!.trim().toLowerCase()];
  if (!extension) throw new Error(`No file extension for ${mediaType}`);
  return extension;
}

export interface StoredMedia {
  key: string;
  url: string;
  content_type: string;
  size_bytes: number;
  width: number | null;
  height: number | null;
  duration_seconds: number | null;
}

/** Stores one produced file under `<folder>/<workspace>/<record>/<index>.<ext>`; its signed link. */
export async function storeMedia(files: FileService, place: { folder: string; workspaceId: string; recordId: string; index: number }, media: MediaOutput): Promise<StoredMedia> {
  const key = `${place.folder}/${place.workspaceId}/${place.recordId}/${place.index}.${extensionOf(media.mediaType)}`;
  const stored = await putBytes(files.storage, key, media.data, media.mediaType);
  return {
    key,
    url: files.signedUrl(key),
    content_type: stored.contentType,
    size_bytes: stored.size,
    width: media.width ?? null,
    height: media.height ?? null,
    duration_seconds: media.durationSeconds ?? null,
  };
}
