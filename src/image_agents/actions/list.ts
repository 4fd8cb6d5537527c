// image_agents.list (catalog 4.7): the workspace's image agents, newest first, paged by cursor.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { cursor } from "../../actions/catalog/define.js";
import { listOutput } from "../../actions/framework/outputs.js";
import { afterKeyset, pageOf } from "../../actions/framework/paging.js";
import { IMAGE_AGENT_TYPE, imageAgentQuery, imageAgentRecord, presentImageAgent } from "../image-agents.js";

export default defineAction({
  name: "image_agents.list",
  method: "GET",
  scopes: ["agents:read"],
  credits: false,
  weight: 1,
  purpose: "image agents of the workspace",
  input: z.strictObject({ cursor: cursor().optional() }),
  output: listOutput(imageAgentRecord),
  async run({ tx, graphql }, input) {
    const result = await pageOf(
      input,
      (window) => tx.agent.findMany({
        ...imageAgentQuery(),
        where: { workspace_id: graphql.auth.workspaceId, agent_type: IMAGE_AGENT_TYPE, ...afterKeyset(window.after, "created_at", "agent_id") },
        orderBy: [{ created_at: "desc" }, { agent_id: "desc" }],
        skip: window.skip,
        take: window.take,
      }) as Promise<Record<string, unknown>[]>,
      (row) => ({ at: row.created_at as Date, id: row.agent_id as string }),
    );
    return { object: "list" as const, data: result.rows.map(presentImageAgent), has_more: result.has_more, next_cursor: result.next_cursor, limit: result.limit };
  },
});
