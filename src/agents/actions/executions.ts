// agents.executions (catalog 4.3): the workspace's agent runs, newest first, paged by cursor like
// every action list; `agent_id` keeps one agent's (404 unknown, 403 another workspace's).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { cursor, id, limit } from "../../actions/catalog/define.js";
import { listOutput } from "../../actions/framework/outputs.js";
import { afterKeyset, pageOf } from "../../actions/framework/paging.js";
import { loadOwned } from "../../resources/service.js";
import { fullSelection, presentRecord } from "../../resources/selection.js";
import { recordSchema } from "../../resources/record-schema.js";
import { agentExecutions, agents } from "../resource.js";

export default defineAction({
  name: "agents.executions",
  method: "GET",
  scopes: ["agents:read"],
  credits: false,
  input: z.strictObject({
    agent_id: id().optional(),
    limit: limit().optional(),
    cursor: cursor().optional(),
  }),
  weight: 1,
  purpose: "history of agent runs with outputs",
  output: listOutput(recordSchema(agentExecutions)),
  async example(setup) {
    const agent = await setup.create("agents", { agent_name: "Tagline writer", agent_type: "image" });
    return { agent_id: agent.agent_id, limit: 10 };
  },
  async run({ tx, graphql }, input) {
    if (input.agent_id) await loadOwned(tx, graphql, agents, input.agent_id, { select: { agent_id: true } }, "read");
    const page = await pageOf(
      input,
      (window) => tx.agentExecution.findMany({
        select: fullSelection(agentExecutions),
        where: { workspace_id: graphql.auth.workspaceId, ...(input.agent_id && { agent_id: input.agent_id }), ...afterKeyset(window.after, "created_at", "execution_id") },
        orderBy: [{ created_at: "desc" }, { execution_id: "desc" }],
        take: window.take,
      }) as Promise<Record<string, unknown>[]>,
      (row) => ({ at: row.created_at as Date, id: row.execution_id as string }),
    );
    return { object: "list" as const, data: page.rows.map((row) => presentRecord(agentExecutions, row)), has_more: page.has_more, next_cursor: page.next_cursor, limit: page.limit };
  },
});
