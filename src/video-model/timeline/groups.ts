// The `groups` field of a video: blocks gathered into sections (a question and its answers, a
// scene). Known keys are checked; others are kept.
import { z } from "zod";

export const group = z
  .looseObject({
    group_id: z.string().min(1).max(100).optional(),
    name: z.string().max(500).optional(),
    type: z.string().min(1).max(64).optional(),
    block_ids: z.array(z.string().min(1).max(100)).max(2000).optional().describe("Blocks of the group, in order."),
    start: z.number().min(0).optional().describe("Seconds; set by timeline.sync_voice."),
    duration: z.number().min(0).optional().describe("Seconds; the sum of its blocks, set by timeline.sync_voice."),
  })
  .describe("A group of timeline blocks; unknown keys are kept.");

export const groupsShape = z.array(group).max(500);
export type Group = z.output<typeof group>;
