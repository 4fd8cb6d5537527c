// Folders: organise videos and playground generations (contract 2.2).
import { z } from "zod";
import { defineResource } from "../registry/resource.js";

export const folders = defineResource({
  name: "folders",
  kind: "folder",
  model: "Folder",
  idField: "folder_id",
  idPrefix: "folder",
  scopeGroup: "folders",
  createdAtField: "folder_created_at",
  routes: ["list", "get", "create", "update", "delete"],
  postAlias: true,
  bulk: true,
  sortable: ["folder_order", "folder_created_at", "folder_name"],
  filterable: ["folder_scope", "folder_color", "folder_created_at"],
  searchable: ["folder_name"],
  heavy: [],
  internal: ["workspace_id"],
  serviceSet: ["folder_created_at"],
  fieldRules: {
    folder_name: z.string().trim().min(1).max(200),
    folder_scope: z.enum(["video", "playground"]),
    folder_color: z.string().max(32),
  },
  children: { videos: { resource: "videos", relation: "video_links", through: "video" } },
  description: "A folder organising videos and playground generations.",
});
