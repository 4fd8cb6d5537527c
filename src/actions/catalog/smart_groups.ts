// Smart groups (catalog 4.4).
import { z } from "zod";
import { defineFamily, id, jsonObject, label, prompt } from "./define.js";

export const SMART_GROUPS_ACTIONS = defineFamily("smart_groups", [
  {
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
  },
  {
    name: "smart_groups.action",
    method: "POST",
    scopes: ["videos:execute"],
    credits: true,
    input: z.strictObject({
      video_id: id(),
      group_id: id(),
      action: label(),
    }),
    price: { credits: 2, per: "call" },
    weight: 2,
    purpose: "execute one of a smart group's declared actions",
  },
  {
    name: "smart_groups.create_qcm",
    method: "POST",
    scopes: ["videos:write"],
    credits: false,
    input: z.strictObject({
      video_id: id(),
      questions: z.array(jsonObject()).min(1).max(100),
    }),
    weight: 1,
    purpose: "multiple-choice question group from a question set",
  },
]);
