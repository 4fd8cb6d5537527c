// GET /api/v1/usage (contract 4.7): the calling key's standing this month — requests sent,
// credits spent, each rate window and the quota — plus the workspace's credit balance.
import { builder } from "../graphql/builder.js";
import type { GraphQLContext } from "../graphql/context.js";
import { definePlatformOperation } from "../registry/operations.js";
import type { WindowStanding } from "../guards/rate-limit.js";
import { nextPeriodStart, periodStart, type QuotaStanding } from "../guards/quota.js";
import { keyStanding, type KeyStanding } from "../guards/guards.js";
import { creditBalance } from "../credits/ledger.js";

interface UsageReport extends KeyStanding {
  period_start: Date;
  period_end: Date;
  requests: number;
  credits_spent: number;
  credit_balance: number;
}

const usageOperation = definePlatformOperation({
  rootType: "Query",
  fieldName: "usage",
  method: "GET",
  path: "/usage",
  scopes: ["usage:read"],
  successStatus: 200,
  input: "none",
  tag: "usage",
  description: "This key's usage this month (requests, credits, rate windows, quota) and the workspace's credit balance. Request counts trail by up to a second (the log is written in batches).",
});

const RateWindowStanding = builder.objectRef<WindowStanding>("RateWindowStanding").implement({
  fields: (t) => ({
    window: t.exposeString("window"),
    limit: t.exposeInt("limit"),
    remaining: t.exposeInt("remaining"),
    reset: t.exposeInt("reset", { description: "Unix seconds at which the window resets." }),
    seconds: t.exposeInt("seconds", { description: "Length of the window." }),
  }),
});

const QuotaReport = builder.objectRef<QuotaStanding>("QuotaStanding").implement({
  fields: (t) => ({
    limit: t.exposeInt("limit"),
    unit: t.exposeString("unit"),
    used: t.exposeInt("used"),
    remaining: t.exposeInt("remaining"),
    reset: t.exposeInt("reset", { description: "Unix seconds at the start of the next period." }),
  }),
});

const Usage = builder.objectRef<UsageReport>("Usage").implement({
  description: "A key's usage this calendar month (UTC).",
  fields: (t) => ({
    object: t.string({ resolve: () => "usage" }),
    period_start: t.expose("period_start", { type: "DateTime" }),
    period_end: t.expose("period_end", { type: "DateTime" }),
    requests: t.exposeInt("requests", { description: "Requests this key sent this period." }),
    credits_spent: t.exposeInt("credits_spent", { description: "Credits this key's calls spent this period." }),
    credit_balance: t.exposeInt("credit_balance", { description: "The workspace's balance now." }),
    rate_limits: t.field({ type: [RateWindowStanding], resolve: (report) => report.rate_limits }),
    quota: t.field({ type: QuotaReport, nullable: true, resolve: (report) => report.quota }),
  }),
});

async function usageReport(context: GraphQLContext): Promise<UsageReport> {
  const now = new Date();
  const start = periodStart(now);
  const { auth, prisma, guards } = context;
  // The workspace filter lets the (workspace_id, created_at, id) indexes serve both counts.
  const thisPeriod = { workspace_id: auth.workspaceId, key_id: auth.keyId, created_at: { gte: start } };
  const [requests, spent, creditBalanceNow, standing] = await Promise.all([
    prisma.requestLog.count({ where: thisPeriod }),
    prisma.creditTransaction.aggregate({ _sum: { amount: true }, where: { ...thisPeriod, amount: { lt: 0 } } }),
    creditBalance(prisma, auth.workspaceId),
    keyStanding(guards, auth, now),
  ]);
  return {
    period_start: start,
    period_end: nextPeriodStart(now),
    requests,
    credits_spent: -(spent._sum.amount ?? 0),
    credit_balance: creditBalanceNow,
    ...standing,
  };
}

builder.queryField("usage", (t) =>
  t.field({
    type: Usage,
    description: usageOperation.description,
    authScopes: { scopes: usageOperation.scopes },
    resolve: (_root, _args, context) => usageReport(context),
  }),
);
