// Why a render failed: the error_code and error_message a failed render record carries.
import path from "node:path";
import { ApiError } from "../errors/api-error.js";
import { logger } from "../logger.js";
import { FfmpegError } from "../media/ffmpeg.js";
import { OperationFailure } from "../operations/kind.js";

/** Every error_code of a failed render (docs/renders.md lists them). */
export const RENDER_ERROR_CODES = [
  /** A media src could not be fetched: blocked by the URL guard, unreachable, timed out, or not 2xx. */
  "media_unreachable",
  /** A media src is larger than CUTROOM_RENDER_MEDIA_MAX_BYTES. */
  "media_too_large",
  /** The video has no composition, or it does not parse (error_message names the first issue). */
  "invalid_composition",
  /**
   * A text layer's `font_url` font has no glyph for some of its characters (checked once the font
   * is fetched, before ffmpeg runs; error_message names them and the layer's path).
   */
  "font_missing_glyphs",
  /** ffmpeg refused the media or the command, or ran past CUTROOM_RENDER_TIMEOUT_MS. */
  "ffmpeg_failed",
  /** The output could not be stored. */
  "storage_failed",
  /** The workers rendering it stopped (crash, restart) on every attempt (src/operations/sweep.ts). */
  "worker_lost",
  /** Anything else; logged with the render id. */
  "internal_error",
] as const;

type RenderErrorCode = (typeof RENDER_ERROR_CODES)[number];

export class RenderFailure extends OperationFailure {
  constructor(override readonly code: RenderErrorCode, message: string) {
    super(code, message);
    this.name = "RenderFailure";
  }
}

/** Longest error_message stored on a render. */
export const MAX_ERROR_MESSAGE = 1000;

/** The failure an error of a render (or of one of its segments) becomes: a stable code, a message safe to show. */
export function asRenderFailure(error: unknown, workDir: string | undefined, renderId: string): OperationFailure {
  if (error instanceof OperationFailure) return error;
  if (error instanceof ApiError && error.code === "validation_failed") return new RenderFailure("invalid_composition", error.message);
  if (error instanceof FfmpegError) {
    // The work directory's path means nothing to the client.
    const stderr = workDir ? error.stderr.split(`${workDir}${path.sep}`).join("") : error.stderr;
    const detail = stderr.split("\n").slice(-6).join("\n");
    return new RenderFailure("ffmpeg_failed", detail ? `${error.message}: ${detail}` : error.message);
  }
  logger.error({ err: error, render_id: renderId }, "render failed unexpectedly");
  return new RenderFailure("internal_error", "The render failed unexpectedly; it has been logged.");
}
