// smart_groups.generate (catalog 4.4): a quiz, a ranking or a dialogue about `topic` (the video's
// name or keyword when left out), written by the text model (structured output) and added to the
// video's smart_groups (video.updated) in the call's one write — 409 conflict if the video changed
// during the model call. A test key gets a quote.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, label, prompt } from "../../actions/catalog/define.js";
import { newId } from "../../ids.js";
import { loadOwned } from "../../resources/service.js";
import { validationFailed } from "../../validation/issues.js";
import { videos } from "../../video-model/index.js";
import { TYPE_BRIEFS, assertRoom, groupAnswer, itemsSchema, loadGroups, storedItems, writeGroups } from "../groups.js";
import { DECLARED_ACTIONS, GENERATED_TYPES, type SmartGroup } from "../shape.js";

const ITEMS = 5;

function generatedType(type: string): (typeof GENERATED_TYPES)[number] {
  if ((GENERATED_TYPES as readonly string[]).includes(type)) return type as (typeof GENERATED_TYPES)[number];
  throw validationFailed([{ path: "type", message: `Must be one of: ${GENERATED_TYPES.join(", ")}.`, type: "any.only", allowed: [...GENERATED_TYPES] }]);
}

export default defineAction({
  name: "smart_groups.generate",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({
    video_id: id(),
    type: label(),
    topic: prompt().optional(),
  }),
  price: { credits: 2, per: "call" },
  weight: 2,
  purpose: "build a smart group (quiz, ranking, dialogue) inside a video",
  mode: "model",
  uses: ["text"],
  output: groupAnswer,
  async example(setup) {
    const video = await setup.create("videos", { video_name: "Tides" });
    return { video_id: video.video_id, type: "quiz", topic: "Why the sea has tides" };
  },
  async check({ graphql }, input) {
    generatedType(input.type);
    assertRoom(await loadGroups(graphql.prisma, graphql, input.video_id));
  },
  async run({ db, graphql, providers, commit }, input) {
    const type = generatedType(input.type);
    const video = await loadGroups(db, graphql, input.video_id);
    assertRoom(video);
    const named = await loadOwned(db, graphql, videos, input.video_id, { select: { video_name: true, video_keyword: true } });
    const subject = [named.video_keyword, named.video_name].find((value): value is string => typeof value === "string" && value.trim() !== "");
    const topic = input.topic?.trim() || subject || "the video's subject";
    const answer = await providers.get("text").generateObject({
      system: `You write interactive segments for short videos. Write ${TYPE_BRIEFS[type]}. Facts must be right; keep every line short enough to read on screen.`,
      prompt: [`Topic: ${topic}`, `Items: ${ITEMS}`, `Language: ${video.video_lang ?? "en"}`].join("\n"),
      schema: itemsSchema(type, ITEMS * 2),
      schemaName: `smart_group_${type}`,
    });
    const now = new Date().toISOString();
    const group = {
      group_id: newId("smart_group"),
      type,
      title: answer.object.title.trim(),
      topic: input.topic?.trim() || null,
      actions: [...DECLARED_ACTIONS[type]],
      items: storedItems(type, answer.object.items),
      created_at: now,
      updated_at: now,
    } as SmartGroup;
    return commit(async (tx) => {
      await writeGroups(tx, graphql, video, [...video.groups, group], true);
      return { object: "smart_group" as const, video_id: video.video_id, group };
    });
  },
});
