// app_screenshots.list (catalog 4.7): the workspace's app-screenshot projects, newest first, paged by cursor.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { cursor } from "../../actions/catalog/define.js";
import { listOutput } from "../../actions/framework/outputs.js";
import { afterKeyset, pageOf } from "../../actions/framework/paging.js";
import { presentProject, projectRecord } from "../projects.js";

export default defineAction({
  name: "app_screenshots.list",
  method: "GET",
  scopes: ["videos:read"],
  credits: false,
  weight: 1,
  purpose: "app-screenshot projects",
  input: z.strictObject({ cursor: cursor().optional() }),
  output: listOutput(projectRecord),
  async run({ tx, graphql }, input) {
    const result = await pageOf(
      input,
      (window) => tx.appScreenshotProject.findMany({
        where: { workspace_id: graphql.auth.workspaceId, ...afterKeyset(window.after, "created_at", "project_id") },
        orderBy: [{ created_at: "desc" }, { project_id: "desc" }],
        skip: window.skip,
        take: window.take,
      }),
      (row) => ({ at: row.created_at, id: row.project_id }),
    );
    return { object: "list" as const, data: result.rows.map(presentProject), has_more: result.has_more, next_cursor: result.next_cursor, limit: result.limit };
  },
});
