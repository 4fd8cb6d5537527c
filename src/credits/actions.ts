// account.credits, account.limits and account.credit_history: the workspace's balance, the
// calling key's limits and their standing, and the ledger newest first.
import { defineActionHandler } from "../actions/framework/handler.js";
import { effectiveLimits } from "../guards/rate-limit.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../resources/list.js";
import { MAX_BODY_BYTES } from "../../rest/body.js";
import { presentRecord } from "../resources/selection.js";
import { fullSelection } from "../resources/selection.js";
import { creditTransactions } from "./resource.js";

defineActionHandler("account.credits", {
  async run({ tx, graphql }) {
    const workspace = await tx.workspace.findUniqueOrThrow({ where: { workspace_id: graphql.auth.workspaceId }, select: { credit_balance: true } });
    return { object: "credit_balance", workspace_id: graphql.auth.workspaceId, credit_balance: workspace.credit_balance };
  },
});

defineActionHandler("account.limits", {
  async run({ graphql }) {
    const { auth, guards } = graphql;
    const limits = effectiveLimits(guards.config.rateLimits, auth.rateLimitOverrides);
    const [windows, quota] = await Promise.all([
      guards.rateLimits.standings(auth.keyId, limits),
      auth.quota ? guards.quotas.standing(auth.keyId, auth.quota) : Promise.resolve(null),
    ]);
    return {
      object: "account_limits",
      rate_limits: windows,
      quota: quota && { ...quota, remaining: Math.max(0, quota.limit - quota.used) },
      page_size: { min: 1, max: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
      request_body_bytes: MAX_BODY_BYTES,
      bulk_items: 100,
      batch_members: 20,
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
