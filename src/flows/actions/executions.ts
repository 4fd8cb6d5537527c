// flows.executions (catalog 4.6): the runs of one flow, newest first — the latest 100 (older ones
// page through GET /api/v1/flow_executions?flow_id=...). Node states and context are included.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id } from "../../actions/catalog/define.js";
import { listOutput } from "../../actions/framework/outputs.js";
import { recordSchema } from "../../resources/record-schema.js";
import { presentRecord } from "../../resources/selection.js";
import { loadOwned } from "../../resources/service.js";
import { flowExecutions, flows } from "../resource.js";

const LATEST = 100;

export default defineAction({
  name: "flows.executions",
  method: "GET",
  scopes: ["flows:read"],
  credits: false,
  input: z.strictObject({ flowId: id() }),
  weight: 1,
  purpose: "execution history of a flow",
  output: listOutput(recordSchema(flowExecutions)),
  async example(setup) {
    const flow = await setup.create("flows", { name: "Example flow", nodes: [{ id: "greet", type: "set", values: { greeting: "Hello" } }] });
    return { flowId: flow.flow_id };
  },
  async run({ tx, graphql }, input) {
    await loadOwned(tx, graphql, flows, input.flowId, { select: { flow_id: true } }, "read");
    const rows = await tx.flowExecution.findMany({
      where: { workspace_id: graphql.auth.workspaceId, flow_id: input.flowId },
      orderBy: [{ created_at: "desc" }, { execution_id: "desc" }],
      take: LATEST + 1,
    });
    return {
      object: "list" as const,
      data: rows.slice(0, LATEST).map((row) => presentRecord(flowExecutions, row)),
      has_more: rows.length > LATEST,
      next_cursor: null,
      limit: LATEST,
    };
  },
});
