// An image a user hands an action: a URL, fetched only through the URL guard (public https, no
// redirects, capped in time and size), or inline base64. Either way the bytes must be an image we
// recognise by its signature (PNG, JPEG, GIF, WebP); the declared type is not trusted.
import { OutboundFetchError, type OutboundGuard } from "../outbound/url-guard.js";
import { validationFailed } from "../validation/issues.js";
import type { Media } from "./types.js";

/** Largest image an action reads (the body cap bounds inline base64 anyway). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 20_000;

/** The image type of some bytes, by their signature; undefined when they are no image we read. */
export function imageTypeOf(bytes: Uint8Array): string | undefined {
  const starts = (...signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return "image/webp";
  return undefined;
}

function notAnImage(param: string, message: string) {
  return validationFailed([{ path: param, message, type: "image.invalid" }], message);
}

function recognised(bytes: Uint8Array, param: string): Media {
  const mediaType = imageTypeOf(bytes);
  if (!mediaType) throw notAnImage(param, `${param} is not a PNG, JPEG, GIF or WebP image.`);
  return { data: bytes, mediaType };
}

/** Decodes inline base64 (a data: URL prefix is accepted). */
export function imageFromBase64(encoded: string, param = "image_base64"): Media {
  const body = encoded.replace(/^data:[^;,]+;base64,/, "").replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length % 4 === 1) throw notAnImage(param, `${param} is not base64.`);
  const bytes = Buffer.from(body, "base64");
  if (bytes.length === 0) throw notAnImage(param, `${param} is empty.`);
  if (bytes.length > MAX_IMAGE_BYTES) throw notAnImage(param, `${param} is larger than ${MAX_IMAGE_BYTES} bytes.`);
  return recognised(bytes, param);
}

/** Fetches an image URL through the guard; a refusal or failure is the caller's 422 at `param`. */
export async function imageFromUrl(outbound: OutboundGuard, url: string, param = "image_url"): Promise<Media> {
  let answer;
  try {
    answer = await outbound.fetch(url, { timeoutMs: FETCH_TIMEOUT_MS, maxResponseBytes: MAX_IMAGE_BYTES + 1, headers: { accept: "image/*" } });
  } catch (error) {
    if (error instanceof OutboundFetchError) throw notAnImage(param, `${param} could not be fetched: ${error.message}`);
    throw error;
  }
  if (answer.status < 200 || answer.status > 299) throw notAnImage(param, `${param} answered HTTP ${answer.status}.`);
  if (answer.truncated) throw notAnImage(param, `${param} is larger than ${MAX_IMAGE_BYTES} bytes.`);
  return recognised(new Uint8Array(answer.body), param);
}
