// renders.create, renders.list and renders.delete (catalog 4.2). A render is created queued, paid
// for in the same transaction, and handed to the render worker once committed; the worker writes
// render.started / render.completed / render.failed (src/renders/render-job.ts).
import { defineActionHandler } from "../actions/framework/handler.js";
import { ApiError, notFound } from "../errors/api-error.js";
import type { GraphQLContext } from "../graphql/context.js";
import { newId } from "../ids.js";
import { currentRequestContext } from "../context/request-context.js";
import { DEFAULT_PAGE_SIZE } from "../resources/list.js";
import { isRenderFormat, parseComposition } from "./composition.js";
import { enqueueRender } from "./render-job.js";
import { presentRender } from "./present.js";
import type { Tx } from "../db/transaction.js";

/** Links handed out by renders.list stay valid a day. */
const LIST_LINK_TTL_SECONDS = 86_400;

async function ownedVideo(tx: Tx, context: GraphQLContext, videoId: string) {
  const video = await tx.video.findUnique({ where: { video_id: videoId }, select: { video_id: true, workspace_id: true, composition: true, video_format: true, video_type_id: true } });
  if (!video) throw notFound("video", videoId, "video_id");
  if (video.workspace_id !== context.auth.workspaceId) throw new ApiError("workspace_mismatch", `The video '${videoId}' belongs to another workspace.`, { param: "video_id" });
  return video;
}

/** Signed links point at the address the caller used, unless a public base URL is set. */
function linkSigner(context: GraphQLContext, ttlSeconds: number) {
  const base = currentRequestContext()?.baseUrl ?? context.services.files.baseUrl;
  return { signedUrl: (key: string) => context.services.files.signer.sign(base, key, ttlSeconds) };
}

defineActionHandler<{ video_id: string; video_type_id?: string; video_format?: string }>("renders.create", {
  async run({ tx, graphql, cost, afterCommit, reference }, input) {
    const video = await ownedVideo(tx, graphql, input.video_id);
    if (video.composition === null) {
      throw new ApiError("validation_failed", "The video has no composition to render.", {
        param: "video_id",
        details: { issues: [{ path: "composition", message: "Set the video's composition first (docs/renders.md).", type: "any.required" }] },
      });
    }
    // The composition is checked now, so a bad one is a 422 here rather than a failed render later.
    parseComposition(video.composition);
    const format = input.video_format ?? video.video_format;
    if (!isRenderFormat(format)) {
      throw new ApiError("validation_failed", `The video's format '${format}' cannot be rendered.`, {
        param: "video_format",
        details: { issues: [{ path: "video_format", message: "Must be one of: portrait, landscape, square.", type: "any.only" }] },
      });
    }
    const renderId = newId("render");
    reference(renderId);
    const row = await tx.render.create({
      data: {
        render_id: renderId,
        workspace_id: graphql.auth.workspaceId,
        video_id: video.video_id,
        video_type_id: input.video_type_id ?? video.video_type_id,
        video_format: format,
        render_status: "queued",
        credits_consumed: cost,
      },
    });
    // Only a committed render can be picked up by a worker.
    afterCommit(() => enqueueRender(graphql.services.jobs, renderId));
    return presentRender(row);
  },
});

defineActionHandler<{ video_id?: string; all_renders?: boolean; page?: number; limit?: number; render_status?: string }>("renders.list", {
  async run({ tx, graphql }, input) {
    if (input.video_id) await ownedVideo(tx, graphql, input.video_id);
    const limit = input.limit ?? DEFAULT_PAGE_SIZE;
    const page = input.page ?? 1;
    const where = {
      workspace_id: graphql.auth.workspaceId,
      ...(input.video_id && { video_id: input.video_id }),
      ...(input.render_status && { render_status: input.render_status }),
    };
    // By default each video's latest render (what a dashboard shows); all_renders: every one.
    const rows = await tx.render.findMany({
      where,
      orderBy: [{ render_creation_date: "desc" }, { render_id: "desc" }],
      ...(input.all_renders ? {} : { distinct: ["video_id"] }),
      skip: (page - 1) * limit,
      take: limit + 1,
    });
    const files = linkSigner(graphql, LIST_LINK_TTL_SECONDS);
    return { object: "list", data: rows.slice(0, limit).map((row) => presentRender(row, files)), page, limit, has_more: rows.length > limit };
  },
});

defineActionHandler<{ render_id: string }>("renders.delete", {
  async run({ tx, graphql, afterCommit }, input) {
    const render = await tx.render.findUnique({ where: { render_id: input.render_id } });
    if (!render) throw notFound("render", input.render_id, "render_id");
    if (render.workspace_id !== graphql.auth.workspaceId) throw new ApiError("workspace_mismatch", `The render '${input.render_id}' belongs to another workspace.`, { param: "render_id" });
    if (render.render_status === "rendering") {
      throw new ApiError("conflict", "The render is running; delete it once it has completed or failed.", { param: "render_id" });
    }
    await tx.render.delete({ where: { render_id: input.render_id } });
    const key = render.output_key;
    if (key) afterCommit(() => graphql.services.files.storage.delete(key));
    return { object: "render", render_id: input.render_id, deleted: true };
  },
});
