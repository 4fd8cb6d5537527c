// account.credit_history (catalog 4.6): the ledger of the workspace, newest first, paged by cursor
// (or page) like every list.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { cursor, limit, page } from "../../actions/catalog/define.js";
import { listOutput } from "../../actions/framework/outputs.js";
import { afterKeyset, pageOf } from "../../actions/framework/paging.js";
import { presentRecord } from "../../resources/selection.js";
import { recordSchema } from "../../resources/record-schema.js";
import { creditTransactions } from "../resource.js";

export default defineAction({
  name: "account.credit_history",
  method: "GET",
  scopes: ["usage:read"],
  credits: false,
  weight: 1,
  purpose: "credit movements, newest first",
  input: z.strictObject({
    page: page().optional(),
    limit: limit().optional(),
    cursor: cursor().optional(),
  }),
  output: listOutput(recordSchema(creditTransactions), { paged: true }),
  async run({ tx, graphql }, input) {
    const result = await pageOf(
      input,
      ({ after, skip, take }) =>
        tx.creditTransaction.findMany({
          where: { workspace_id: graphql.auth.workspaceId, ...afterKeyset(after, "created_at", "transaction_id") },
          orderBy: [{ created_at: "desc" }, { transaction_id: "desc" }],
          skip,
          take,
        }),
      (row) => ({ at: row.created_at, id: row.transaction_id }),
    );
    return {
      object: "list" as const,
      data: result.rows.map((row) => presentRecord(creditTransactions, row)),
      has_more: result.has_more,
      next_cursor: result.next_cursor,
      limit: result.limit,
      page: result.page,
    };
  },
});
