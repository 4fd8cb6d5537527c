// flows.executions (catalog 4.6): the runs of one flow, newest first, 25 a page, paged by cursor
// (like every list action). Node states, execution path and context are included.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { cursor, id } from "../../actions/catalog/define.js";
import { listOutput } from "../../actions/framework/outputs.js";
import { afterKeyset, pageOf } from "../../actions/framework/paging.js";
import { recordSchema } from "../../resources/record-schema.js";
import { presentRecord } from "../../resources/selection.js";
import { loadOwned } from "../../resources/service.js";
import { flowExecutions, flows } from "../resource.js";

export default defineAction({
  name: "flows.executions",
  method: "GET",
  scopes: ["flows:read"],
  credits: false,
  input: z.strictObject({ flowId: id(), cursor: cursor().optional() }),
  weight: 1,
  purpose: "execution history of a flow",
  output: listOutput(recordSchema(flowExecutions)),
  async example(setup) {
    const flow = await setup.create("flows", { name: "Example flow", nodes: [{ id: "greet", type: "set", values: { greeting: "Hello" } }] });
    return { flowId: flow.flow_id };
  },
  async run({ tx, graphql }, input) {
    await loadOwned(tx, graphql, flows, input.flowId, { select: { flow_id: true } }, "read");
    const result = await pageOf(
      input,
      (window) => tx.flowExecution.findMany({
        where: { workspace_id: graphql.auth.workspaceId, flow_id: input.flowId, ...afterKeyset(window.after, "created_at", "execution_id") },
        orderBy: [{ created_at: "desc" }, { execution_id: "desc" }],
        skip: window.skip,
        take: window.take,
      }),
      (row) => ({ at: row.created_at, id: row.execution_id }),
    );
    return { object: "list" as const, data: result.rows.map((row) => presentRecord(flowExecutions, row)), has_more: result.has_more, next_cursor: result.next_cursor, limit: result.limit };
  },
});
