// account.credits (catalog 4.6): the workspace's credit balance.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { creditBalance } from "../../credits/ledger.js";

export default defineAction({
  name: "account.credits",
  method: "GET",
  scopes: ["usage:read"],
  credits: false,
  weight: 1,
  purpose: "current credit balance",
  input: z.strictObject({}),
  output: z.object({
    object: z.literal("credit_balance"),
    workspace_id: z.string(),
    credit_balance: z.number().int().describe("Whole credits available to spend."),
  }),
  async run({ tx, graphql }) {
    return { object: "credit_balance" as const, workspace_id: graphql.auth.workspaceId, credit_balance: await creditBalance(tx, graphql.auth.workspaceId) };
  },
});
