// Music: AI song generations and their tracks (contract 2.2). Written by music.generate;
// read-only as a resource. Its list field is `music`, so its kind is `music_generation`.
import { defineResource } from "../registry/resource.js";

export const music = defineResource({
  name: "music",
  kind: "music_generation",
  model: "MusicGeneration",
  idField: "generation_id",
  idPrefix: "music_generation",
  scopeGroup: "music",
  createdAtField: "created_at",
  routes: ["list", "get"],
  sortable: ["created_at", "updated_at", "credits_consumed"],
  filterable: ["status", "provider", "model_id", "created_at"],
  searchable: [],
  heavy: ["tracks", "request"],
  internal: ["workspace_id"],
  serviceSet: ["created_at", "updated_at", "status", "credits_consumed", "tracks", "error_message"],
  description: "An AI song generation and its tracks.",
});
