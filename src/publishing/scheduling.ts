// The one scheduling service (docs/publishing.md, "One way in"): every way of creating or
// rescheduling a post — publishing.schedule_post, POST/PATCH /api/v1/scheduled_posts, the GraphQL
// create/update mutations, the bulk route — goes through the scheduled_posts resource's
// beforeWrite hook, which calls checkSchedule here. It checks that the video and the account are
// the workspace's (403 workspace_mismatch / 404 not_found, as publishing.schedule_post always did),
// that the account is connected and the time lies within the next year (422), charges the 1-credit
// price (the action's runner bills its own calls) and, once committed, queues the delayed job that
// wakes the publisher at scheduled_at.
import type { GraphQLContext } from "../graphql/context.js";
import type { Tx } from "../db/transaction.js";
import type { RecordWrite } from "../registry/resource.js";
import { spendCredits } from "../credits/ledger.js";
import { loadOwned } from "../resources/service.js";
import { validationFailed } from "../validation/issues.js";
import { videos } from "../video-model/index.js";
import { queuePublish } from "./publisher.js";
import { socialAccounts } from "./resource.js";

/** publishing.schedule_post's price (catalog 4.6), charged for every scheduled post however created. */
export const SCHEDULE_CREDITS = 1;
export const SCHEDULE_ACTION = "publishing.schedule_post";
/** A time this far in the past still counts as "now" (clock skew, a slow client). */
const PAST_TOLERANCE_MS = 60_000;
/** Posts are scheduled at most this far ahead. */
const HORIZON_MS = 366 * 86_400_000;

type Row = Record<string, unknown>;

function required(value: unknown, path: string): string {
  if (typeof value === "string" && value.length > 0) return value;
  throw validationFailed([{ path, message: "Required to schedule a post.", type: "any.required" }]);
}

/** The checks every new or rescheduled post passes; answers the columns the service sets. */
async function checkTargets(tx: Tx, context: GraphQLContext, post: Row, changed: (field: string) => boolean): Promise<Row> {
  const stamped: Row = {};
  const videoId = required(post.video_id, "video_id");
  const accountId = required(post.account_id, "account_id");
  if (changed("video_id")) {
    const video = await loadOwned(tx, context, videos, videoId, { select: { video_id: true, video_name: true } });
    if (post.title === undefined || post.title === null) stamped.title = video.video_name ?? null;
  }
  if (changed("account_id") || changed("platform")) {
    const account = await loadOwned(tx, context, socialAccounts, accountId, { select: { account_id: true, platform: true, status: true } });
    if (account.status !== "connected") {
      throw validationFailed([{ path: "account_id", message: `The account is ${String(account.status)}; reconnect it before scheduling posts on it.`, type: "any.invalid" }]);
    }
    if (typeof post.platform === "string" && post.platform !== account.platform) {
      throw validationFailed([{ path: "platform", message: `The account is on '${String(account.platform)}'; leave platform out or send that.`, type: "any.invalid" }]);
    }
    stamped.platform = account.platform;
  }
  if (changed("scheduled_at")) {
    const at = post.scheduled_at instanceof Date ? post.scheduled_at : new Date(String(post.scheduled_at));
    if (Number.isNaN(at.getTime())) throw validationFailed([{ path: "scheduled_at", message: "Required: an ISO 8601 time.", type: "any.required" }]);
    if (at.getTime() < Date.now() - PAST_TOLERANCE_MS) throw validationFailed([{ path: "scheduled_at", message: "Must not lie in the past.", type: "date.min" }]);
    if (at.getTime() > Date.now() + HORIZON_MS) throw validationFailed([{ path: "scheduled_at", message: "Must lie within a year from now.", type: "date.max" }]);
  }
  return stamped;
}

/**
 * The scheduled_posts write hook's scheduling part (create and update of a `scheduled` post).
 * Returns the service-set columns to store with the write.
 */
export async function checkSchedule(tx: Tx, write: RecordWrite): Promise<Row> {
  const { context, input = {}, existing } = write;
  const post: Row = { ...existing, ...input };
  const isCreate = write.mode === "create";
  const stamped = await checkTargets(tx, context, post, (field) => isCreate || (input[field] !== undefined && input[field] !== existing?.[field]));
  if (isCreate && context.auth.livemode && write.action !== SCHEDULE_ACTION) {
    // The action's runner bills its own call; every other way in pays the same price here.
    await spendCredits(tx, { workspaceId: context.auth.workspaceId, amount: SCHEDULE_CREDITS, actionType: SCHEDULE_ACTION, keyId: context.auth.keyId, referenceId: write.id });
  }
  if (isCreate || input.scheduled_at !== undefined) {
    const scheduledAt = new Date(String(post.scheduled_at instanceof Date ? post.scheduled_at.toISOString() : post.scheduled_at));
    // A second job for the same time is a no-op; an older job finds the post not due and leaves it.
    write.afterCommit(() => queuePublish((job, payload, options) => context.services.jobs.enqueue(job, payload, options), { post_id: write.id, scheduled_at: scheduledAt }));
  }
  return stamped;
}
