// Image agents (catalog 4.7).
import { z } from "zod";
import { count, defineFamily, id, ids, jsonObject, label, modelRef, name, prompt, text, url } from "./define.js";

const agentFields = {
  agent_name: name(),
  agent_description: text(2000).optional(),
  agent_model: modelRef().optional(),
  agent_prompt_template: prompt().optional(),
  agent_settings: jsonObject().optional(),
};

export const IMAGE_AGENTS_ACTIONS = defineFamily("image_agents", [
  {
    name: "image_agents.list",
    method: "GET",
    scopes: ["agents:read"],
    credits: false,
    input: z.strictObject({}),
    weight: 1,
    purpose: "image agents of the workspace",
  },
  {
    name: "image_agents.create",
    method: "POST",
    scopes: ["agents:write"],
    credits: false,
    input: z.strictObject(agentFields),
    weight: 1,
    purpose: "create an image agent",
  },
  {
    name: "image_agents.update",
    method: "POST",
    scopes: ["agents:write"],
    credits: false,
    input: z.strictObject({
      agent_id: id(),
      ...agentFields,
      agent_name: name().optional(),
    }),
    weight: 1,
    purpose: "update an image agent",
  },
  {
    name: "image_agents.delete",
    method: "POST",
    scopes: ["agents:delete"],
    credits: false,
    input: z.strictObject({ agent_id: id() }),
    weight: 1,
    purpose: "delete an image agent",
  },
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
