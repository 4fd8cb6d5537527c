// What renders.create reads of a video, and the format it renders in.
import type { Tx } from "../db/transaction.js";
import type { GraphQLContext } from "../graphql/context.js";
import { loadOwned } from "../resources/service.js";
import { validationFailed } from "../validation/issues.js";
import { videos } from "../video-model/index.js";
import { RENDER_FORMATS, isRenderFormat, type RenderFormat } from "./composition.js";

/** The caller's video with what a render is made from; 404 / 403 otherwise. */
export async function videoToRender(tx: Tx, context: GraphQLContext, videoId: string) {
  const video = await loadOwned(tx, context, videos, videoId, { select: { video_id: true, composition: true, video_format: true, video_type_id: true } });
  return video as { video_id: string; composition: unknown; video_format: string | null; video_type_id: string | null };
}

/** The format a render is made in: one of RENDER_FORMATS, or a 422 at video_format. */
export function renderFormat(format: string | null): RenderFormat {
  if (isRenderFormat(format)) return format;
  throw validationFailed(
    [{ path: "video_format", message: `Must be one of: ${RENDER_FORMATS.join(", ")}.`, type: "any.only" }],
    `The video's format '${format}' cannot be rendered.`,
  );
}
