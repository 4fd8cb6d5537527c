// renders.list (catalog 4.2): each video's latest render by default (what a dashboard shows), or
// every render with all_renders; newest first, paged by cursor (or page) like every list.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { cursor, flag, id, label, limit, page } from "../../actions/catalog/define.js";
import { listOutput } from "../../actions/framework/outputs.js";
import { afterKeyset, pageOf, type Keyset } from "../../actions/framework/paging.js";
import type { Tx } from "../../db/transaction.js";
import { Prisma } from "../../generated/prisma/client.js";
import { loadOwned } from "../../resources/service.js";
import { recordSchema } from "../../resources/record-schema.js";
import { videos } from "../../video-model/index.js";
import { presentRender } from "../present.js";
import { renders } from "../resource.js";

/** Links handed out by renders.list stay valid a day. */
const LIST_LINK_TTL_SECONDS = 86_400;

interface RenderFilter {
  workspaceId: string;
  videoId?: string;
  renderStatus?: string;
}

interface Window {
  after?: Keyset;
  skip: number;
  take: number;
}

const NEWEST_FIRST = [{ render_creation_date: "desc" }, { render_id: "desc" }] satisfies Prisma.RenderOrderByWithRelationInput[];

/**
 * Ids of a page of each video's latest render matching the filter, newest first. Prisma's
 * `distinct` (without the nativeDistinct preview feature) would load every matching row and keep
 * the latest in memory; DISTINCT ON lets PostgreSQL do it.
 */
async function latestRenderIds(tx: Tx, filter: RenderFilter, window: Window): Promise<string[]> {
  const { after } = window;
  const rows = await tx.$queryRaw<{ render_id: string }[]>`
    SELECT render_id FROM (
      SELECT DISTINCT ON (video_id) render_id, render_creation_date
      FROM renders
      WHERE workspace_id = ${filter.workspaceId}
        ${filter.videoId ? Prisma.sql`AND video_id = ${filter.videoId}` : Prisma.empty}
        ${filter.renderStatus ? Prisma.sql`AND render_status = ${filter.renderStatus}` : Prisma.empty}
      ORDER BY video_id, render_creation_date DESC, render_id DESC
    ) AS latest
    ${after ? Prisma.sql`WHERE (render_creation_date, render_id) < (${after.at}, ${after.id})` : Prisma.empty}
    ORDER BY render_creation_date DESC, render_id DESC
    OFFSET ${window.skip} LIMIT ${window.take}`;
  return rows.map((row) => row.render_id);
}

/** A page of every render matching the filter, newest first. */
function everyRender(tx: Tx, filter: RenderFilter, window: Window) {
  const where = { workspace_id: filter.workspaceId, video_id: filter.videoId, render_status: filter.renderStatus, ...afterKeyset(window.after, "render_creation_date", "render_id") };
  return tx.render.findMany({ where, orderBy: NEWEST_FIRST, skip: window.skip, take: window.take });
}

/** A page of each video's latest render matching the filter, newest first. */
async function latestRenders(tx: Tx, filter: RenderFilter, window: Window) {
  const ids = await latestRenderIds(tx, filter, window);
  return ids.length === 0 ? [] : tx.render.findMany({ where: { render_id: { in: ids } }, orderBy: NEWEST_FIRST });
}

export default defineAction({
  name: "renders.list",
  method: "GET",
  scopes: ["renders:read"],
  credits: false,
  weight: 1,
  purpose: "render jobs with status and output URLs",
  input: z.strictObject({
    video_id: id().optional(),
    all_renders: flag().optional(),
    page: page().optional(),
    limit: limit().optional(),
    render_status: label().optional(),
    cursor: cursor().optional(),
  }),
  output: listOutput(recordSchema(renders), { paged: true }),
  async run({ tx, graphql }, input) {
    // Only whether the caller may see the video matters here.
    if (input.video_id) await loadOwned(tx, graphql, videos, input.video_id, { select: { video_id: true } });
    const filter = { workspaceId: graphql.auth.workspaceId, videoId: input.video_id, renderStatus: input.render_status };
    const fetch = input.all_renders ? everyRender : latestRenders;
    const result = await pageOf(input, (window) => fetch(tx, filter, window), (row) => ({ at: row.render_creation_date, id: row.render_id }));
    const files = { signedUrl: (key: string) => graphql.services.files.signedUrl(key, LIST_LINK_TTL_SECONDS) };
    return {
      object: "list" as const,
      data: result.rows.map((row) => presentRender(row, files)),
      has_more: result.has_more,
      next_cursor: result.next_cursor,
      limit: result.limit,
      page: result.page,
    };
  },
});
