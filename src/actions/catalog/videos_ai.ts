// AI video generation (catalog 4.3).
import { z } from "zod";
import { count, defineFamily, flag, id, integer, jsonObject, label, modelRef, name, prompt, url } from "./define.js";

export const VIDEOS_AI_ACTIONS = defineFamily("videos_ai", [
  {
    name: "videos_ai.generate",
    method: "POST",
    scopes: ["generations:execute"],
    credits: true,
    input: z.strictObject({
      agent_id: id(),
      custom_prompt: prompt().optional(),
      variables: jsonObject().optional(),
      video_id: id().optional(),
      count: count().default(1),
      use_ai_optimization: flag().optional(),
      preprompt_context: prompt().optional(),
      image_url: url().optional(),
      end_image_url: url().optional(),
      duration: integer(1, 60).default(5),
      aspectRatio: label().optional(),
      nativeAudio: flag().optional(),
      tier: label().optional(),
      source: label().optional(),
      folder_id: id().optional(),
    }),
    price: { credits: 5, per: "second", unit_field: "duration", times_field: "count", note: "per second of each clip" },
    weight: 5,
    purpose: "run a video-generation agent and bill the workspace",
  },
  {
    name: "videos_ai.extend",
    method: "POST",
    scopes: ["generations:execute"],
    credits: true,
    input: z.strictObject({
      task_id: id(),
      prompt: prompt().optional(),
      model: modelRef().optional(),
      agent_model: modelRef().optional(),
      agent_name: name().optional(),
      agent_id: id().optional(),
      source: label().optional(),
      folder_id: id().optional(),
    }),
    price: { credits: 25, per: "call", note: "one segment, priced as 5 seconds of generated video" },
    weight: 5,
    purpose: "extend a generated video by another segment",
  },
]);
