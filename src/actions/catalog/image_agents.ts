// Image agents (catalog 4.7): generate and status, still pending (list / create / update / delete
// are live in src/image_agents/).
import { z } from "zod";
import { count, defineFamily, id, ids, jsonObject, label, prompt, url } from "./define.js";

export const IMAGE_AGENTS_ACTIONS = defineFamily("image_agents", [
  {
    name: "image_agents.generate",
    method: "POST",
    scopes: ["generations:execute"],
    credits: true,
    input: z.strictObject({
      agent_id: id(),
      variables: jsonObject().optional(),
      custom_prompt: prompt().optional(),
      video_id: id().optional(),
      count: count().default(1),
      quality: label().optional(),
      aspect_ratio: label().optional(),
      source: label().optional(),
      reference_image_url: url().optional(),
      additional_reference_image_urls: z.array(url()).max(10).optional(),
      variation_strength: z.number().min(0).max(1).optional(),
      folder_id: id().optional(),
      source_generation_id: id().optional(),
      source_image_url: url().optional(),
      action_type: label().optional(),
    }),
    price: { credits: 4, per: "item", unit_field: "count" },
    weight: 5,
    purpose: "start an image generation job; poll `image_agents.status`",
  },
  {
    name: "image_agents.status",
    method: "POST",
    scopes: ["generations:read"],
    credits: false,
    input: z.strictObject({ generation_ids: ids(100) }),
    weight: 1,
    purpose: "status of one or more image generation jobs",
  },
]);
