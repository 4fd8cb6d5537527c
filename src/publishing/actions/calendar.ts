// publishing.calendar (catalog 4.6): the workspace's scheduled posts between `from` and `to`,
// grouped by UTC day of scheduled_at. A date alone means that whole day; without `from` the
// calendar starts today, without `to` it runs 31 days from `from`. At most 366 days and 1,000 posts.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { dateOrTimestamp } from "../../actions/catalog/define.js";
import { recordSchema } from "../../resources/record-schema.js";
import { presentRecord } from "../../resources/selection.js";
import { validationFailed } from "../../validation/issues.js";
import { scheduledPosts } from "../resource.js";

const DAY_MS = 86_400_000;
const DEFAULT_SPAN_DAYS = 31;
const MAX_SPAN_DAYS = 366;
const MAX_POSTS = 1000;

const isDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
const startOfDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

export default defineAction({
  name: "publishing.calendar",
  method: "GET",
  scopes: ["publishing:read"],
  credits: false,
  input: z.strictObject({
    from: dateOrTimestamp().optional(),
    to: dateOrTimestamp().optional(),
  }),
  weight: 1,
  purpose: "scheduled posts grouped by day",
  output: z.object({
    object: z.literal("publishing_calendar"),
    from: z.string().describe("Start of the range (inclusive)."),
    to: z.string().describe("End of the range (exclusive)."),
    total: z.number().int().describe("Posts in the range."),
    truncated: z.boolean().describe("More than 1,000 posts: the latest days are cut."),
    days: z.array(z.object({ date: z.string().describe("UTC day, YYYY-MM-DD."), count: z.number().int(), posts: z.array(recordSchema(scheduledPosts)) })),
  }),
  async example() {
    return { from: "2026-11-01", to: "2026-11-30" };
  },
  async run({ tx, graphql }, input) {
    const from = input.from ? new Date(input.from) : startOfDay(new Date());
    // A date as `to` includes that whole day.
    const to = input.to ? new Date(new Date(input.to).getTime() + (isDate(input.to) ? DAY_MS : 0)) : new Date(from.getTime() + DEFAULT_SPAN_DAYS * DAY_MS);
    if (to <= from) throw validationFailed([{ path: "to", message: "Must come after `from`.", type: "date.min" }]);
    if (to.getTime() - from.getTime() > MAX_SPAN_DAYS * DAY_MS) throw validationFailed([{ path: "to", message: `The range may span at most ${MAX_SPAN_DAYS} days.`, type: "date.max" }]);
    const rows = await tx.scheduledPost.findMany({
      where: { workspace_id: graphql.auth.workspaceId, scheduled_at: { gte: from, lt: to } },
      orderBy: [{ scheduled_at: "asc" }, { post_id: "asc" }],
      take: MAX_POSTS + 1,
    });
    const days = new Map<string, Record<string, unknown>[]>();
    for (const row of rows.slice(0, MAX_POSTS)) {
      const day = row.scheduled_at.toISOString().slice(0, 10);
      days.set(day, [...(days.get(day) ?? []), presentRecord(scheduledPosts, row)]);
    }
    return {
      object: "publishing_calendar" as const,
      from: from.toISOString(),
      to: to.toISOString(),
      total: Math.min(rows.length, MAX_POSTS),
      truncated: rows.length > MAX_POSTS,
      days: [...days].map(([date, posts]) => ({ date, count: posts.length, posts })),
    };
  },
});
