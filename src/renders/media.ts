// The media a composition names (image, video and audio `src`, text layers' `font_url`), brought
// into a render's work directory. An http(s) URL is fetched through the outbound URL guard only
// (https to public addresses or the allow-list, no redirects, a time limit and a size cap per file).
// The workspace's own media is read from storage directly, never over HTTP and never through the
// guard: a reference (`asset:`, `background:`, `take:`, `render:`, `generation:`) is looked up in the
// render's workspace (src/video-model/timeline/media-references.ts), and this service's own signed
// `/files/` link is recognised by its signature and must name a file of the workspace. An asset or
// background whose file lives elsewhere is fetched from the URL it holds, through the guard.
import { createWriteStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Tx } from "../db/transaction.js";
import { OutboundFetchError, type OutboundGuard } from "../outbound/url-guard.js";
import type { FileUrlSigner } from "../storage/signed-urls.js";
import { FileNotFoundError, type Storage } from "../storage/storage.js";
import { keyBelongsTo, mediaSourcesOf, ownLinkKey, resolveReference, type MediaTarget } from "../video-model/index.js";
import { parseMediaReference } from "../video-model/index.js";
import type { Composition } from "./composition.js";
import { RenderFailure } from "./render-failure.js";

interface MediaLimits {
  maxBytes: number;
  timeoutMs: number;
}

export interface MediaServices {
  outbound: OutboundGuard;
  storage: Storage;
  signer: Pick<FileUrlSigner, "verify">;
  /** Reads the reference's records (a client or a transaction). */
  db: Tx;
  /** The render's workspace: references and own links must be its own. */
  workspaceId: string;
}

/** Brings at once at most this many files. */
const PARALLEL_DOWNLOADS = 4;

/** Where one src is read from: storage, or a URL through the guard. Throws RenderFailure. */
async function targetOf(services: MediaServices, src: string, where: string): Promise<MediaTarget> {
  const reference = parseMediaReference(src);
  if (reference) {
    const target = await resolveReference(services.db, services.workspaceId, reference, services.signer);
    if (!target) throw new RenderFailure("media_unreachable", `${where}: no ${reference.kind} '${reference.id}' in this workspace.`);
    if ("key" in target && !target.key) throw new RenderFailure("media_unreachable", `${where}: the ${reference.kind} '${reference.id}' has no file.`);
    return target;
  }
  const key = ownLinkKey(src, services.signer);
  if (key) {
    if (!keyBelongsTo(key, services.workspaceId)) throw new RenderFailure("media_unreachable", `${where}: the link is to a file this workspace does not hold.`);
    return { key };
  }
  return { url: src };
}

/** Fetches every distinct src once; returns src → local file. Throws RenderFailure. */
export async function downloadMedia(services: MediaServices, composition: Composition, workDir: string, limits: MediaLimits): Promise<Map<string, string>> {
  // Each distinct src, with the first place naming it (for the error message's path).
  const sources = new Map<string, string>();
  for (const { src, path: where } of mediaSourcesOf(composition)) if (!sources.has(src)) sources.set(src, where);
  const pending = [...sources.entries()].map(([src, where], fileIndex) => ({ src, where, file: path.join(workDir, `media-${fileIndex}`) }));
  const files = new Map<string, string>();

  const next = async (): Promise<void> => {
    for (let item = pending.shift(); item; item = pending.shift()) {
      try {
        const target = await targetOf(services, item.src, item.where);
        if ("key" in target) await readStored(services.storage, target.key, item.where, item.file, limits);
        else await fetchOne(services.outbound, target.url, item.where, item.file, limits);
      } catch (error) {
        pending.length = 0; // the render has failed: start no further download
        throw error;
      }
      files.set(item.src, item.file);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_DOWNLOADS, pending.length) }, next));
  return files;
}

const tooLarge = (where: string, limits: MediaLimits) => new RenderFailure("media_too_large", `${where}: the file is larger than ${limits.maxBytes} bytes.`);

/** Copies a stored file into the work directory, within the size cap. */
async function readStored(storage: Storage, key: string, where: string, file: string, limits: MediaLimits): Promise<void> {
  const stored = await storage.stat(key);
  if (!stored) throw new RenderFailure("media_unreachable", `${where}: the file is no longer stored.`);
  if (stored.size > limits.maxBytes) throw tooLarge(where, limits);
  let seen = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > limits.maxBytes ? tooLarge(where, limits) : null, chunk);
    },
  });
  try {
    await pipeline(await storage.open(key), cap, createWriteStream(file));
  } catch (error) {
    if (error instanceof RenderFailure) throw error;
    if (error instanceof FileNotFoundError) throw new RenderFailure("media_unreachable", `${where}: the file is no longer stored.`);
    throw error;
  }
}

async function fetchOne(outbound: OutboundGuard, src: string, where: string, file: string, limits: MediaLimits): Promise<void> {
  let answer;
  try {
    answer = await outbound.fetch(src, { timeoutMs: limits.timeoutMs, maxResponseBytes: limits.maxBytes, headers: { "user-agent": "Cutroom/1 (+renders)" } });
  } catch (error) {
    if (error instanceof OutboundFetchError) {
      if (error.reason === "too_large") throw tooLarge(where, limits);
      throw new RenderFailure("media_unreachable", `${where}: ${error.message}`);
    }
    throw error;
  }
  if (answer.status < 200 || answer.status > 299) throw new RenderFailure("media_unreachable", `${where}: the server answered HTTP ${answer.status}.`);
  if (answer.truncated) throw tooLarge(where, limits);
  await writeFile(file, answer.body);
}
