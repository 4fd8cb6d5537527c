// Downloads the media a composition names (image and audio `src`) into a render's work directory,
// through the outbound URL guard only: https to public addresses (or the allow-list), no
// redirects, a time limit and a size cap per file.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { OutboundFetchError, type OutboundGuard } from "../outbound/url-guard.js";
import { mediaLayers, type Composition } from "./composition.js";
import { RenderFailure } from "./render-failure.js";

interface MediaLimits {
  maxBytes: number;
  timeoutMs: number;
}

/** Downloads at once at most this many files. */
const PARALLEL_DOWNLOADS = 4;

/** Fetches every distinct src once; returns src → local file. Throws RenderFailure. */
export async function downloadMedia(outbound: OutboundGuard, composition: Composition, workDir: string, limits: MediaLimits): Promise<Map<string, string>> {
  // Each distinct src, with the first layer naming it (for the error message's path).
  const sources = new Map<string, number>();
  for (const { index, layer } of mediaLayers(composition)) if (!sources.has(layer.src)) sources.set(layer.src, index);
  const pending = [...sources.entries()].map(([src, layerIndex], fileIndex) => ({ src, layerIndex, file: path.join(workDir, `media-${fileIndex}`) }));
  const files = new Map<string, string>();

  const next = async (): Promise<void> => {
    for (let item = pending.shift(); item; item = pending.shift()) {
      try {
        await fetchOne(outbound, item.src, `composition.layers.${item.layerIndex}.src`, item.file, limits);
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

async function fetchOne(outbound: OutboundGuard, src: string, where: string, file: string, limits: MediaLimits): Promise<void> {
  const tooLarge = () => new RenderFailure("media_too_large", `${where}: the file is larger than ${limits.maxBytes} bytes.`);
  let answer;
  try {
    answer = await outbound.fetch(src, { timeoutMs: limits.timeoutMs, maxResponseBytes: limits.maxBytes, headers: { "user-agent": "Cutroom/1 (+renders)" } });
  } catch (error) {
    if (error instanceof OutboundFetchError) {
      if (error.reason === "too_large") throw tooLarge();
      throw new RenderFailure("media_unreachable", `${where}: ${error.message}`);
    }
    throw error;
  }
  if (answer.status < 200 || answer.status > 299) throw new RenderFailure("media_unreachable", `${where}: the server answered HTTP ${answer.status}.`);
  if (answer.truncated) throw tooLarge();
  await writeFile(file, answer.body);
}
