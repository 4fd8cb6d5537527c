// flows.execute (catalog 4.6): runs a flow as an operation. The execution record is written pending
// and the flow operation (src/flows/flow-operation.ts) queued in one transaction, the launch fee
// held; the operation calls each node's action as the launching key and emits flow.completed or
// flow.failed. A test key gets 400 test_mode_unsupported (the catalog's choice; docs/flows.md).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, jsonObject } from "../../actions/catalog/define.js";
import { newId } from "../../ids.js";
import type { Prisma } from "../../generated/prisma/client.js";
import { recordSchema } from "../../resources/record-schema.js";
import { presentRecord } from "../../resources/selection.js";
import { loadOwned } from "../../resources/service.js";
import { validationFailed } from "../../validation/issues.js";
import { catalogLookup } from "../action-lookup.js";
import { initialStates } from "../engine.js";
import { flowOperation } from "../flow-operation.js";
import { checkGraph } from "../graph.js";
import { flowExecutions, flows } from "../resource.js";

const asObject = (value: unknown): Record<string, unknown> => (value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

export default defineAction({
  name: "flows.execute",
  method: "POST",
  scopes: ["flows:execute"],
  credits: true,
  input: z.strictObject({
    flowId: id(),
    variables: jsonObject().optional(),
  }),
  price: { credits: 1, per: "call", note: "launch fee; every node that spends credits is billed at its own price as it runs" },
  weight: 5,
  // A flow's path, its nodes' costs and their side effects are decided by the outputs of earlier
  // nodes, so a dry run can neither quote nor replay it (docs/actions.md, "Test mode").
  testMode: "unsupported",
  purpose: "run a flow and return its execution",
  output: recordSchema(flowExecutions),
  async example(setup) {
    const flow = await setup.create("flows", {
      name: "Example flow",
      nodes: [{ id: "greet", type: "set", values: { greeting: "Hello {{vars.name}}" } }],
      variables: { name: "world" },
    });
    return { flowId: flow.flow_id, variables: { name: "Ada" } };
  },
  async run({ tx, graphql, queueOperation }, input) {
    const flow = await loadOwned(tx, graphql, flows, input.flowId, { select: { flow_id: true, status: true, nodes: true, edges: true, variables: true } });
    if (flow.status === "archived") throw validationFailed([{ path: "flowId", message: `The flow '${input.flowId}' is archived; set its status to draft or active to run it.`, type: "any.invalid" }]);
    const { graph, issues } = checkGraph(flow.nodes, flow.edges, catalogLookup);
    if (issues.length > 0) throw validationFailed(issues.map((issue) => ({ ...issue, path: `flow.${issue.path}` })), `The flow's graph is not valid: ${issues[0]!.path}: ${issues[0]!.message}`);
    // The flow's variables are defaults; those of the call win.
    const variables = { ...asObject(flow.variables), ...(input.variables ?? {}) };
    const executionId = newId("flow_execution");
    const row = await tx.flowExecution.create({
      data: {
        execution_id: executionId,
        workspace_id: graphql.auth.workspaceId,
        flow_id: input.flowId,
        status: "pending",
        input_variables: variables as Prisma.InputJsonValue,
        node_states: initialStates(graph) as unknown as Prisma.InputJsonValue,
        execution_path: [],
        context: { vars: variables, nodes: {} } as Prisma.InputJsonValue,
      },
    });
    await queueOperation(flowOperation, {
      subjectId: executionId,
      input: { flow_id: input.flowId, variables, caller: { key_id: graphql.auth.keyId, scopes: [...graphql.auth.scopes] } },
    });
    return presentRecord(flowExecutions, row);
  },
});
