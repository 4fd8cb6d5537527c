// Reading and writing the smart groups of a video, and what the text model is asked for each type.
import { z } from "zod";
import type { Tx } from "../db/transaction.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { GraphQLContext } from "../graphql/context.js";
import { ApiError } from "../errors/api-error.js";
import { loadOwned, updateRecordIn } from "../resources/service.js";
import { validationFailed } from "../validation/issues.js";
import { videos } from "../video-model/index.js";
import { dialogueItem, questionItem, rankingItem, smartGroups, type SmartGroup } from "./shape.js";

/** Most groups a video holds (the shape's bound). */
export const MAX_GROUPS = 50;

export interface GroupedVideo {
  video_id: string;
  video_lang: string | null;
  updated_at: Date;
  groups: SmartGroup[];
}

/** The caller's video and its groups: 404 / 403, or 422 when the stored value is not groups. */
export async function loadGroups(client: PrismaClient | Tx, context: GraphQLContext, videoId: string): Promise<GroupedVideo> {
  const row = await loadOwned(client, context, videos, videoId, { select: { video_id: true, video_lang: true, smart_groups: true, video_updated_at: true } });
  const parsed = smartGroups.safeParse(row.smart_groups ?? []);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw validationFailed([{ path: ["smart_groups", ...(first?.path ?? [])].join("."), message: first?.message ?? "Not smart groups.", type: "any.invalid" }], "The video's smart_groups are not smart groups.");
  }
  return { video_id: row.video_id as string, video_lang: row.video_lang as string | null, updated_at: row.video_updated_at as Date, groups: parsed.data };
}

/** The group `groupId` of the video, or 404 at group_id. */
export function groupOf(video: GroupedVideo, groupId: string): SmartGroup {
  const group = video.groups.find((item) => item.group_id === groupId);
  if (!group) throw new ApiError("not_found", `The video '${video.video_id}' has no smart group '${groupId}'.`, { param: "group_id" });
  return group;
}

/** 400 when the video already holds the most groups it can. */
export function assertRoom(video: GroupedVideo): void {
  if (video.groups.length >= MAX_GROUPS) throw new ApiError("invalid_request", `The video already holds ${MAX_GROUPS} smart groups.`, { param: "video_id" });
}

/** Writes the groups (video.updated), refusing with 409 when the video changed since `read` (model calls). */
export async function writeGroups(tx: Tx, context: GraphQLContext, video: GroupedVideo, groups: SmartGroup[], checkUnchanged: boolean): Promise<void> {
  if (checkUnchanged) {
    const now = await tx.video.findUnique({ where: { video_id: video.video_id }, select: { video_updated_at: true } });
    if (!now || now.video_updated_at.getTime() !== video.updated_at.getTime()) {
      throw new ApiError("conflict", "The video changed while its smart group was written; try again.", { param: "video_id" });
    }
  }
  await updateRecordIn(tx, context, videos, video.video_id, { smart_groups: smartGroups.parse(groups) }, { select: { video_id: true } });
}

/** What the text model writes for each generated type. */
export function itemsSchema(type: "quiz" | "ranking" | "dialogue", max: number) {
  const modelQuestion = z.object({ question: z.string().min(1).max(1_000), choices: z.array(z.string().min(1).max(500)).min(2).max(6), correct_index: z.number().int().min(0).max(5), explanation: z.string().max(2_000) });
  const items = { quiz: modelQuestion, ranking: rankingItem.omit({ rank: true }), dialogue: dialogueItem }[type];
  return z.object({ title: z.string().min(1).max(200), items: z.array(items).min(1).max(max) });
}

export const TYPE_BRIEFS: Record<"quiz" | "ranking" | "dialogue", string> = {
  quiz: "a quiz: multiple-choice questions, each with 2 to 6 choices, the index of the correct one and a short explanation",
  ranking: "a ranking: items from first to last, each with a label and a one-sentence detail",
  dialogue: "a dialogue: lines in order, each with its speaker (two or three speakers)",
};

/** Model items made into stored items (quiz answers clamped to their choices, ranks numbered). */
export function storedItems(type: "quiz" | "ranking" | "dialogue", items: readonly Record<string, unknown>[], firstRank = 1): SmartGroup["items"] {
  if (type === "quiz") {
    return items.map((item) => {
      const question = item as { question: string; choices: string[]; correct_index: number; explanation: string };
      return questionItem.parse({ ...question, correct_index: Math.min(question.correct_index, question.choices.length - 1), explanation: question.explanation || null });
    });
  }
  if (type === "ranking") return items.map((item, index) => rankingItem.parse({ ...item, rank: firstRank + index }));
  return items.map((item) => dialogueItem.parse(item));
}

/** A group as the actions answer it (items as JSON objects: their shape depends on the type). */
export const groupOutput = z
  .object({
    group_id: z.string(),
    type: z.string().describe("quiz, qcm, ranking or dialogue."),
    title: z.string(),
    topic: z.string().nullable(),
    actions: z.array(z.string()).describe("What smart_groups.action accepts for this group."),
    items: z.array(z.record(z.string(), z.json())),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "SmartGroup" });

export const groupAnswer = z.object({ object: z.literal("smart_group"), video_id: z.string(), group: groupOutput });
