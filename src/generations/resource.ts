// AI generations billed to the workspace, and the playground gallery's generations (contract
// 2.2), both guarded by the `generations` scope group.
import { z } from "zod";
import { defineResource } from "../registry/resource.js";

/** Written by the generation actions (images.generate, videos_ai.generate, ...); read-only. */
export const generations = defineResource({
  name: "generations",
  kind: "generation",
  model: "Generation",
  idField: "generation_id",
  idPrefix: "generation",
  scopeGroup: "generations",
  createdAtField: "created_at",
  routes: ["list", "get"],
  sortable: ["created_at", "credits_consumed"],
  filterable: ["agent_type", "agent_model", "agent_id", "folder_id", "status", "created_at"],
  searchable: ["prompt"],
  heavy: ["generation_metadata", "variables"],
  internal: ["workspace_id"],
  serviceSet: ["created_at", "updated_at", "completed_at", "status", "credits_consumed", "output_urls", "thumbnail_url", "error_message"],
  references: {
    agent_id: { resource: "agents", relation: "agent" },
    folder_id: { resource: "folders", relation: "folder", where: { folder_scope: "playground" } },
  },
  description: "An AI generation billed to the workspace (image, video, audio, music).",
});

/**
 * Made by the playground actions; through the API a client can only file one in a folder,
 * title it, favourite it, or delete it.
 */
export const playgroundGenerations = defineResource({
  name: "playground_generations",
  kind: "playground_generation",
  model: "PlaygroundGeneration",
  // The contract names the id `_id`; Prisma field names cannot start with an underscore.
  idField: "_id",
  idColumn: "playground_generation_id",
  idPrefix: "playground_generation",
  scopeGroup: "generations",
  createdAtField: "created_at",
  routes: ["list", "get", "update", "delete"],
  bulk: true,
  sortable: ["created_at"],
  filterable: ["folder_id", "generation_type", "generation_category", "created_at"],
  searchable: ["prompt"],
  heavy: ["input_params", "result_data"],
  internal: ["workspace_id"],
  serviceSet: [
    "created_at", "updated_at", "generation_type", "generation_category", "status", "prompt", "media_url", "thumbnail_url",
    "credits_consumed", "input_params", "result_data",
  ],
  fieldRules: { title: z.string().max(500) },
  references: { folder_id: { resource: "folders", relation: "folder", where: { folder_scope: "playground" } } },
  description: "An image or video generated from the playground gallery.",
});
