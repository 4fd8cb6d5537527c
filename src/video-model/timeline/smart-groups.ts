// The `smart_groups` field of a video: its interactive sections — a quiz, a multiple-choice set
// (qcm), a ranking or a dialogue. smart_groups.* writes them (src/smart_groups/), and the videos
// resource checks every write against this one shape, so a group stored through PATCH /videos is
// one smart_groups.action can run.
import { z } from "zod";
import { uniqueIds } from "./unique-ids.js";

export const SMART_GROUP_TYPES = ["quiz", "qcm", "ranking", "dialogue"] as const;

export const questionItem = z.strictObject({
  question: z.string().min(1).max(1_000),
  choices: z.array(z.string().min(1).max(500)).min(2).max(6),
  /** 0-based index into `choices`. */
  correct_index: z.number().int().min(0),
  explanation: z.string().max(2_000).nullable(),
}).refine((item) => item.correct_index < item.choices.length, { message: "correct_index must name one of the choices.", path: ["correct_index"] });

export const rankingItem = z.strictObject({
  rank: z.number().int().min(1),
  label: z.string().min(1).max(500),
  detail: z.string().max(2_000),
});

export const dialogueItem = z.strictObject({
  speaker: z.string().min(1).max(200),
  line: z.string().min(1).max(2_000),
});

const common = {
  group_id: z.string().min(1).max(64),
  title: z.string().min(1).max(200),
  topic: z.string().max(20_000).nullable(),
  /** The actions smart_groups.action accepts for this group. */
  actions: z.array(z.string().min(1).max(64)),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
};

export const smartGroup = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("quiz"), ...common, items: z.array(questionItem).min(1).max(100) }),
  z.strictObject({ type: z.literal("qcm"), ...common, items: z.array(questionItem).min(1).max(100) }),
  z.strictObject({ type: z.literal("ranking"), ...common, items: z.array(rankingItem).min(1).max(100) }),
  z.strictObject({ type: z.literal("dialogue"), ...common, items: z.array(dialogueItem).min(1).max(100) }),
]);
export type SmartGroup = z.output<typeof smartGroup>;

/** The whole `video.smart_groups` value: groups, ids unique. */
export const smartGroups = z
  .array(smartGroup)
  .max(50)
  .superRefine(uniqueIds("group_id", "Group"));
