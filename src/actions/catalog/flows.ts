// Flows (catalog 4.6).
import { z } from "zod";
import { defineFamily, id, jsonObject } from "./define.js";

export const FLOWS_ACTIONS = defineFamily("flows", [
  {
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
  },
  {
    name: "flows.executions",
    method: "GET",
    scopes: ["flows:read"],
    credits: false,
    input: z.strictObject({ flowId: id() }),
    weight: 1,
    purpose: "execution history of a flow",
  },
]);
