// voice_projects.list (catalog 4.7): the workspace's voice projects, newest first, paged by
// cursor; `project_id` narrows the list to that project (404 unknown, 403 another workspace's).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { cursor, id } from "../../actions/catalog/define.js";
import { listOutput } from "../../actions/framework/outputs.js";
import { afterKeyset, pageOf } from "../../actions/framework/paging.js";
import { loadOwned } from "../../resources/service.js";
import { presentVoiceProject, voiceProjectRecord, voiceProjects } from "../projects.js";

export default defineAction({
  name: "voice_projects.list",
  method: "GET",
  scopes: ["voices:read"],
  credits: false,
  weight: 1,
  purpose: "bulk text-to-voice projects",
  input: z.strictObject({ project_id: id().optional(), cursor: cursor().optional() }),
  output: listOutput(voiceProjectRecord),
  async run({ tx, graphql }, input) {
    if (input.project_id) await loadOwned(tx, graphql, voiceProjects, input.project_id, { select: { project_id: true } }, "read");
    const result = await pageOf(
      input,
      (window) => tx.voiceProject.findMany({
        where: { workspace_id: graphql.auth.workspaceId, project_id: input.project_id, ...afterKeyset(window.after, "created_at", "project_id") },
        orderBy: [{ created_at: "desc" }, { project_id: "desc" }],
        skip: window.skip,
        take: window.take,
      }),
      (row) => ({ at: row.created_at, id: row.project_id }),
    );
    return { object: "list" as const, data: result.rows.map(presentVoiceProject), has_more: result.has_more, next_cursor: result.next_cursor, limit: result.limit };
  },
});
