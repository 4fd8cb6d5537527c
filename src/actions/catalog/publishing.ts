// Publishing (catalog 4.6).
import { z } from "zod";
import { dateOrTimestamp, defineFamily, id, text, timestamp } from "./define.js";

export const PUBLISHING_ACTIONS = defineFamily("publishing", [
  {
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
  },
  {
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
  },
]);
