// Images the tools keep: each provider answer is checked and measured with sharp before it is
// stored (under generations/<workspace>/<generation>/), and answered with its signed link.
import sharp from "sharp";
import { ApiError } from "../errors/api-error.js";
import { storeMedia, type StoredMedia } from "../generations/stored-media.js";
import { imageFromBase64, imageFromUrl } from "../providers/user-image.js";
import type { OutboundGuard } from "../outbound/url-guard.js";
import type { Media, MediaOutput } from "../providers/types.js";
import { validationFailed } from "../validation/issues.js";
import type { FileService } from "../storage/from-config.js";

export interface StoredImage extends StoredMedia {
  width: number;
  height: number;
  has_alpha: boolean;
  /** Every pixel is fully opaque (an alpha channel that cuts nothing out). */
  opaque: boolean;
}

/** The facts sharp reads from an image; a provider answer it cannot read is a 502. */
export async function measuredImage(media: MediaOutput, provider: string): Promise<{ width: number; height: number; format: string; hasAlpha: boolean; opaque: boolean }> {
  try {
    const image = sharp(media.data);
    const [metadata, stats] = await Promise.all([image.metadata(), image.stats()]);
    if (!metadata.width || !metadata.height || !metadata.format) throw new Error("no size");
    return { width: metadata.width, height: metadata.height, format: metadata.format, hasAlpha: Boolean(metadata.hasAlpha), opaque: stats.isOpaque };
  } catch {
    throw new ApiError("upstream_error", `The ${provider} answer is not an image that can be read.`, { details: { provider, reason: "invalid_answer" } });
  }
}

/** Stores one produced image (as PNG when `asPng`), measured. */
export async function storeImage(files: FileService, place: { workspaceId: string; recordId: string; index: number }, media: MediaOutput, options: { provider: string; asPng?: boolean }): Promise<StoredImage> {
  const facts = await measuredImage(media, options.provider);
  const data = options.asPng && facts.format !== "png" ? new Uint8Array(await sharp(media.data).png().toBuffer()) : media.data;
  const mediaType = options.asPng ? "image/png" : media.mediaType;
  const stored = await storeMedia(files, { folder: "generations", ...place }, { data, mediaType, width: facts.width, height: facts.height });
  return { ...stored, width: facts.width, height: facts.height, has_alpha: facts.hasAlpha, opaque: facts.opaque };
}

/** The answer fields of a stored image. */
export function imageFields(image: StoredImage) {
  return { url: image.url, content_type: image.content_type, size_bytes: image.size_bytes, width: image.width, height: image.height };
}

/** How a stored file is remembered in a generation's metadata (`files`). */
export function fileEntry(image: StoredMedia) {
  return { key: image.key, content_type: image.content_type, size_bytes: image.size_bytes, width: image.width, height: image.height };
}

/** The image of a call that takes `image_base64` or `image_url` (exactly one), checked against its `media_type`. */
export async function sentImage(outbound: OutboundGuard, input: { image_base64?: string; image_url?: string; media_type?: string }): Promise<Media> {
  if (input.image_base64 !== undefined && input.image_url !== undefined) {
    throw validationFailed([{ path: "image_url", message: "Send image_base64 or image_url, not both.", type: "object.xor" }]);
  }
  const image = input.image_base64 !== undefined ? imageFromBase64(input.image_base64) : await imageFromUrl(outbound, input.image_url!);
  if (input.media_type && input.media_type.toLowerCase() !== image.mediaType) {
    throw validationFailed([{ path: "media_type", message: `The image is ${image.mediaType}, not ${input.media_type}.`, type: "any.only" }]);
  }
  return image;
}
