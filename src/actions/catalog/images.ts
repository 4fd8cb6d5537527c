// Images (catalog 4.3).
import { z } from "zod";
import { count, defineFamily, flag, id, jsonObject, label, prompt, url } from "./define.js";

export const IMAGES_ACTIONS = defineFamily("images", [
  {
    name: "images.generate",
    method: "POST",
    scopes: ["generations:execute"],
    credits: true,
    emits: ["generation.completed"],
    input: z.strictObject({
      agent_id: id(),
      variables: jsonObject().optional(),
      custom_prompt: prompt().optional(),
      use_ai_optimization: flag().optional(),
      preprompt_context: prompt().optional(),
      video_id: id().optional(),
      count: count().default(1),
      reference_image_url: url().optional(),
      variation_strength: z.number().min(0).max(1).optional(),
      temperature: z.number().min(0).max(2).optional(),
      settings_overrides: jsonObject().optional(),
      folder_id: id().optional(),
      source_generation_id: id().optional(),
      source_image_url: url().optional(),
      action_type: label().optional(),
    }),
    price: { credits: 4, per: "item", unit_field: "count" },
    weight: 5,
    purpose: "run an image agent and bill the workspace",
  },
]);
