// publishing.schedule_post (catalog 4.6): queues a video for publication on a connected account.
// The video and the account must be the workspace's; the post is written `scheduled` and billed in
// one transaction; once committed, a BullMQ job delayed until scheduled_at wakes the publisher
// (src/publishing/publisher.ts), and the sweep publishes it anyway if that job is lost.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, text, timestamp } from "../../actions/catalog/define.js";
import { newId } from "../../ids.js";
import { recordEvent } from "../../outbox/record-event.js";
import { recordSchema } from "../../resources/record-schema.js";
import { presentRecord } from "../../resources/selection.js";
import { loadOwned } from "../../resources/service.js";
import { validationFailed } from "../../validation/issues.js";
import { videos } from "../../videos/resource.js";
import { queuePublish } from "../publisher.js";
import { scheduledPosts, socialAccounts } from "../resource.js";

/** A time this far in the past still counts as "now" (clock skew, a slow client). */
const PAST_TOLERANCE_MS = 60_000;
/** Posts are scheduled at most this far ahead. */
const HORIZON_MS = 366 * 86_400_000;

export default defineAction({
  name: "publishing.schedule_post",
  method: "POST",
  scopes: ["publishing:execute", "publishing:write"],
  credits: true,
  input: z.strictObject({
    video_id: id(),
    account_id: id(),
    scheduled_at: timestamp(),
    caption: text(5000).optional(),
  }),
  price: { credits: 1, per: "call" },
  weight: 1,
  purpose: "queue a video for publication on a connected account",
  output: recordSchema(scheduledPosts),
  async example(setup) {
    const video = await setup.create("videos", { video_name: "Example", composition: { duration: 1, fps: 10, layers: [{ type: "text", text: "Hi" }] } });
    const account = await setup.account!("youtube");
    return { video_id: video.video_id, account_id: account.account_id, scheduled_at: new Date(Date.now() + 86_400_000).toISOString(), caption: "Out tomorrow" };
  },
  async run({ tx, graphql, reference, afterCommit }, input) {
    const video = await loadOwned(tx, graphql, videos, input.video_id, { select: { video_id: true, video_name: true } });
    const account = await loadOwned(tx, graphql, socialAccounts, input.account_id, { select: { account_id: true, platform: true, status: true } });
    if (account.status !== "connected") {
      throw validationFailed([{ path: "account_id", message: `The account is ${String(account.status)}; reconnect it before scheduling posts on it.`, type: "any.invalid" }]);
    }
    const scheduledAt = new Date(input.scheduled_at);
    if (scheduledAt.getTime() < Date.now() - PAST_TOLERANCE_MS) throw validationFailed([{ path: "scheduled_at", message: "Must not lie in the past.", type: "date.min" }]);
    if (scheduledAt.getTime() > Date.now() + HORIZON_MS) throw validationFailed([{ path: "scheduled_at", message: "Must lie within a year from now.", type: "date.max" }]);
    const postId = newId("scheduled_post");
    const row = await tx.scheduledPost.create({
      data: {
        post_id: postId,
        workspace_id: graphql.auth.workspaceId,
        video_id: input.video_id,
        account_id: input.account_id,
        platform: account.platform as string,
        status: "scheduled",
        scheduled_at: scheduledAt,
        title: (video.video_name as string | null) ?? null,
        caption: input.caption ?? null,
      },
    });
    reference(postId);
    const post = presentRecord(scheduledPosts, row);
    await recordEvent(tx, { workspaceId: graphql.auth.workspaceId, type: "scheduled_post.created", livemode: graphql.auth.livemode, data: { object: post } });
    afterCommit(() => queuePublish((job, payload, options) => graphql.services.jobs.enqueue(job, payload, options), row));
    return post;
  },
});
