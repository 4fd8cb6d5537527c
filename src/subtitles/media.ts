// Media a user names by URL, fetched for transcription: through the URL guard only (redirects
// checked hop by hop), a time limit, and the transcription provider's size cap. Its type comes
// from its bytes; its length and picture (a video) from ffprobe.
import os from "node:os";
import { OutboundFetchError, type OutboundGuard } from "../outbound/url-guard.js";
import { guardedGet, headerOf, TooManyRedirectsError } from "../providers/guarded-get.js";
import { mediaFacts, sniffMediaType } from "../providers/media-info.js";
import type { Media } from "../providers/types.js";
import { validationFailed } from "../validation/issues.js";

/** The transcription provider's upload limit (Whisper: 25 MB). */
export const MAX_MEDIA_BYTES = 25 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;

export interface FetchedMedia extends Media {
  url: string;
  durationSeconds?: number;
  /** True when the media has a picture (a video), false for sound only. */
  hasPicture: boolean;
}

function unusable(param: string, message: string) {
  return validationFailed([{ path: param, message, type: "any.invalid" }], `${param}: ${message}`);
}

/** Fetches audio or video the caller named; a 422 at `param` when it cannot be used. */
export async function fetchMedia(outbound: OutboundGuard, url: string, param: string): Promise<FetchedMedia> {
  let answer;
  try {
    answer = (await guardedGet(outbound, url, { timeoutMs: FETCH_TIMEOUT_MS, maxResponseBytes: MAX_MEDIA_BYTES + 1, headers: { accept: "audio/*,video/*", "user-agent": "Cutroom/1 (+subtitles)" } })).result;
  } catch (error) {
    if (error instanceof OutboundFetchError || error instanceof TooManyRedirectsError) throw unusable(param, `The media could not be fetched: ${error.message}`);
    throw error;
  }
  if (answer.status < 200 || answer.status > 299) throw unusable(param, `The media server answered HTTP ${answer.status}.`);
  if (answer.truncated || answer.body.length > MAX_MEDIA_BYTES) throw unusable(param, `The media is larger than ${MAX_MEDIA_BYTES} bytes.`);
  const data = new Uint8Array(answer.body);
  const declared = headerOf(answer, "content-type")?.split(";")[0]?.trim();
  const mediaType = sniffMediaType(data) ?? (declared && /^(audio|video)\//.test(declared) ? declared : undefined);
  if (!mediaType || !/^(audio|video)\//.test(mediaType)) throw unusable(param, "The URL does not serve audio or video.");
  const facts = await mediaFacts(data, mediaType, os.tmpdir());
  if (facts.durationSeconds === undefined) throw unusable(param, "The media could not be read (no duration).");
  return { url, data, mediaType, durationSeconds: facts.durationSeconds, hasPicture: facts.width !== undefined };
}
