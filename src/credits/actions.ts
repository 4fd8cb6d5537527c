// account.credits, account.limits and account.credit_history: the workspace's balance, the
// calling key's limits and their standing, and the ledger newest first.
import { defineActionHandler } from "../actions/framework/handler.js";
import { keyStanding } from "../guards/guards.js";
import { DEFAULT_PAGE_SIZE } from "../resources/list.js";
import { REQUEST_LIMITS } from "../../rest/body.js";
import { MAX_BULK_ITEMS } from "../../rest/bulk.js";
import { MAX_BATCH_MEMBERS } from "../../rest/batch.js";
import { fullSelection, presentRecord } from "../resources/selection.js";
import { creditBalance } from "./ledger.js";
import { creditTransactions } from "./resource.js";

defineActionHandler("account.credits", {
  async run({ tx, graphql }) {
    return { object: "credit_balance", workspace_id: graphql.auth.workspaceId, credit_balance: await creditBalance(tx, graphql.auth.workspaceId) };
  },
});

defineActionHandler("account.limits", {
  async run({ graphql }) {
    return {
      object: "account_limits",
      ...(await keyStanding(graphql.guards, graphql.auth)),
      ...REQUEST_LIMITS,
      bulk_items: MAX_BULK_ITEMS,
      batch_members: MAX_BATCH_MEMBERS,
    };
  },
});

defineActionHandler<{ page?: number; limit?: number }>("account.credit_history", {
  async run({ tx, graphql }, input) {
    const limit = input.limit ?? DEFAULT_PAGE_SIZE;
    const page = input.page ?? 1;
    const rows = await tx.creditTransaction.findMany({
      select: fullSelection(creditTransactions),
      where: { workspace_id: graphql.auth.workspaceId },
      orderBy: [{ created_at: "desc" }, { transaction_id: "desc" }],
      skip: (page - 1) * limit,
      take: limit + 1,
    });
    return {
      object: "list",
      data: rows.slice(0, limit).map((row) => presentRecord(creditTransactions, row)),
      page,
      limit,
      has_more: rows.length > limit,
    };
  },
});
