// publishing.schedule_post (catalog 4.6): queues a video for publication on a connected account.
// It writes the post through the scheduled_posts resource, so the checks, the charge's price and
// the delayed job are the scheduling service's (../scheduling.ts), the same as POST
// /api/v1/scheduled_posts; the runner bills this call. The sweep publishes the post anyway if its
// job is lost.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, text, timestamp } from "../../actions/catalog/define.js";
import { recordSchema } from "../../resources/record-schema.js";
import { fullSelection, presentRecord } from "../../resources/selection.js";
import { createRecordIn } from "../../resources/service.js";
import { SCHEDULE_ACTION } from "../scheduling.js";
import { scheduledPosts } from "../resource.js";

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
    // The resource's own write path: the scheduling service checks, stamps and queues (../scheduling.ts).
    // The record's platform is the account's; the hook checks the account is the workspace's.
    const account = await tx.socialAccount.findUnique({ where: { account_id: input.account_id }, select: { platform: true } });
    const fields = { ...input, platform: account?.platform ?? "unknown" };
    const row = await createRecordIn(tx, graphql, scheduledPosts, fields, { select: fullSelection(scheduledPosts) }, { action: SCHEDULE_ACTION, afterCommit });
    reference(row.post_id as string);
    return presentRecord(scheduledPosts, row);
  },
});
