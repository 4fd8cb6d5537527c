// Storage of output files (rendered videos, later thumbnails and exports): one small interface,
// with a local-directory implementation (default) and an S3-compatible one, chosen from config
// (from-config.ts). Files are named by keys such as `renders/<workspace>/<render_id>.mp4`; they are
// served to clients only through signed, expiring URLs (signed-urls.ts, rest/files.ts).
import os from "node:os";
import path from "node:path";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { Readable } from "node:stream";

export interface StoredFile {
  size: number;
  contentType: string;
  lastModified?: Date;
  etag?: string;
}

/** Inclusive byte positions, as in an HTTP Range. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface Storage {
  readonly kind: "local" | "s3";
  /** Stores a local file under a key (replacing what was there) and reports what was stored. */
  put(key: string, localPath: string, options?: { contentType?: string }): Promise<StoredFile>;
  /** A stream of the file (or of a range of it); FileNotFoundError when there is none. */
  open(key: string, range?: ByteRange): Promise<Readable>;
  /** What is stored under a key, or null. */
  stat(key: string): Promise<StoredFile | null>;
  /** Removes a file; removing a missing file is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every file whose key starts with `prefix/` (a folder of keys); none is not an error. */
  deletePrefix(prefix: string): Promise<void>;
}

export class FileNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No file stored under '${key}'.`);
    this.name = "FileNotFoundError";
  }
}

const KEY_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_][A-Za-z0-9._-]*)*$/;

/** Keys are relative paths of plain segments: no `..`, no empty or hidden segments, no leading `/`. */
export function isValidKey(key: string): boolean {
  return key.length > 0 && key.length <= 512 && KEY_PATTERN.test(key);
}

export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`Invalid storage key '${key}'`);
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".mov": "video/quicktime",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".mp3": "audio/mpeg",
  ".m4a": "audio/mp4",
  ".wav": "audio/wav",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".srt": "application/x-subrip",
  ".vtt": "text/vtt",
};

/** The content type of a key, from its extension. */
export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[path.extname(key).toLowerCase()] ?? "application/octet-stream";
}

/** Stores bytes under a key (through a temporary file, which every storage takes). */
export async function putBytes(storage: Storage, key: string, data: Uint8Array, contentType = contentTypeOf(key)): Promise<StoredFile> {
  const directory = await mkdtemp(path.join(os.tmpdir(), "cutroom-put-"));
  try {
    const file = path.join(directory, path.basename(key));
    await writeFile(file, data);
    return await storage.put(key, file, { contentType });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
