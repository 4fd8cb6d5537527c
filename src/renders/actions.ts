// renders.create, renders.list and renders.delete (catalog 4.2). A render is created queued, paid
// for in the same transaction, and handed to the render worker once committed; the worker writes
// render.started / render.completed / render.failed (src/renders/render-job.ts).
import { defineActionHandler } from "../actions/framework/handler.js";
import { ApiError } from "../errors/api-error.js";
import type { GraphQLContext } from "../graphql/context.js";
import { newId } from "../ids.js";
import { DEFAULT_PAGE_SIZE } from "../resources/list.js";
import { loadOwned } from "../resources/service.js";
import { validationFailed } from "../validation/issues.js";
import { Prisma } from "../generated/prisma/client.js";
import { videos } from "../videos/resource.js";
import { RENDER_FORMATS, isRenderFormat, parseComposition, type RenderFormat } from "./composition.js";
import { enqueueRender } from "./render-job.js";
import { presentRender } from "./present.js";
import { renders } from "./resource.js";
import type { Tx } from "../db/transaction.js";

/** Links handed out by renders.list stay valid a day. */
const LIST_LINK_TTL_SECONDS = 86_400;

/** The caller's video with what a render is made from; 404 / 403 otherwise. */
async function videoToRender(tx: Tx, context: GraphQLContext, videoId: string) {
  const video = await loadOwned(tx, context, videos, videoId, { select: { video_id: true, composition: true, video_format: true, video_type_id: true } });
  return video as { video_id: string; composition: unknown; video_format: string | null; video_type_id: string | null };
}

/** The format a render is made in: one of RENDER_FORMATS, or a 422 at video_format. */
function renderFormat(format: string | null): RenderFormat {
  if (isRenderFormat(format)) return format;
  throw validationFailed(
    [{ path: "video_format", message: `Must be one of: ${RENDER_FORMATS.join(", ")}.`, type: "any.only" }],
    `The video's format '${format}' cannot be rendered.`,
  );
}

defineActionHandler<{ video_id: string; video_type_id?: string; video_format?: string }>("renders.create", {
  async run({ tx, graphql, cost, afterCommit, reference }, input) {
    const video = await videoToRender(tx, graphql, input.video_id);
    // The composition is checked now (a missing one included), so a bad one is a 422 here rather
    // than a failed render later.
    parseComposition(video.composition);
    const format = renderFormat(input.video_format ?? video.video_format);
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

interface RenderFilter {
  workspaceId: string;
  videoId?: string;
  renderStatus?: string;
}

/**
 * Ids of a page of each video's latest render matching the filter, newest first. Prisma's
 * `distinct` (without the nativeDistinct preview feature) would load every matching row and keep
 * the latest in memory; DISTINCT ON lets PostgreSQL do it.
 */
async function latestRenderIds(tx: Tx, filter: RenderFilter, skip: number, take: number): Promise<string[]> {
  const rows = await tx.$queryRaw<{ render_id: string }[]>`
    SELECT render_id FROM (
      SELECT DISTINCT ON (video_id) render_id, render_creation_date
      FROM renders
      WHERE workspace_id = ${filter.workspaceId}
        ${filter.videoId ? Prisma.sql`AND video_id = ${filter.videoId}` : Prisma.empty}
        ${filter.renderStatus ? Prisma.sql`AND render_status = ${filter.renderStatus}` : Prisma.empty}
      ORDER BY video_id, render_creation_date DESC, render_id DESC
    ) AS latest
    ORDER BY render_creation_date DESC, render_id DESC
    OFFSET ${skip} LIMIT ${take}`;
  return rows.map((row) => row.render_id);
}

const NEWEST_FIRST = [{ render_creation_date: "desc" }, { render_id: "desc" }] satisfies Prisma.RenderOrderByWithRelationInput[];

/** A page of every render matching the filter, newest first. */
function everyRender(tx: Tx, filter: RenderFilter, skip: number, take: number) {
  const where = { workspace_id: filter.workspaceId, video_id: filter.videoId, render_status: filter.renderStatus };
  return tx.render.findMany({ where, orderBy: NEWEST_FIRST, skip, take });
}

/** A page of each video's latest render matching the filter, newest first. */
async function latestRenders(tx: Tx, filter: RenderFilter, skip: number, take: number) {
  const ids = await latestRenderIds(tx, filter, skip, take);
  return ids.length === 0 ? [] : tx.render.findMany({ where: { render_id: { in: ids } }, orderBy: NEWEST_FIRST });
}

defineActionHandler<{ video_id?: string; all_renders?: boolean; page?: number; limit?: number; render_status?: string }>("renders.list", {
  async run({ tx, graphql }, input) {
    // Only whether the caller may see the video matters here.
    if (input.video_id) await loadOwned(tx, graphql, videos, input.video_id, { select: { video_id: true } });
    const limit = input.limit ?? DEFAULT_PAGE_SIZE;
    const page = input.page ?? 1;
    const filter = { workspaceId: graphql.auth.workspaceId, videoId: input.video_id, renderStatus: input.render_status };
    // By default each video's latest render (what a dashboard shows); all_renders: every one.
    // One row past the page tells whether there is a next one.
    const pageOf = input.all_renders ? everyRender : latestRenders;
    const rows = await pageOf(tx, filter, (page - 1) * limit, limit + 1);
    const files = { signedUrl: (key: string) => graphql.services.files.signedUrl(key, LIST_LINK_TTL_SECONDS) };
    return { object: "list", data: rows.slice(0, limit).map((row) => presentRender(row, files)), page, limit, has_more: rows.length > limit };
  },
});

defineActionHandler<{ render_id: string }>("renders.delete", {
  async run({ tx, graphql, afterCommit }, input) {
    const render = await loadOwned(tx, graphql, renders, input.render_id, { select: { render_status: true, output_key: true } });
    if (render.render_status === "rendering") {
      throw new ApiError("conflict", "The render is running; delete it once it has completed or failed.", { param: "render_id" });
    }
    await tx.render.delete({ where: { render_id: input.render_id } });
    const key = render.output_key as string | null;
    if (key) afterCommit(() => graphql.services.files.storage.delete(key));
    return { object: "render", render_id: input.render_id, deleted: true };
  },
});
