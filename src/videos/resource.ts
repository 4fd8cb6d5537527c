// Videos: video projects with timeline, blocks and generation settings (contract 2.2, 2.3).
import { z } from "zod";
import { defineResource } from "../registry/resource.js";
import { folderIdsCondition, writeVideoFolders } from "./folder-links.js";

export const VIDEO_FORMATS = ["portrait", "landscape", "square"] as const;

export const videos = defineResource({
  name: "videos",
  kind: "video",
  model: "Video",
  idField: "video_id",
  idPrefix: "video",
  scopeGroup: "videos",
  createdAtField: "video_created_at",
  routes: ["list", "get", "create", "update", "delete"],
  postAlias: true,
  bulk: true,
  sortable: ["video_created_at", "video_name", "video_last_audios_edition"],
  filterable: [
    "video_format", "video_type_id", "video_sub_type_id", "video_type", "video_lang", "published",
    "video_ready_to_be_processed", "folder_ids", "faceless_status", "video_created_at",
  ],
  searchable: ["video_name", "video_keyword", "video_comment"],
  heavy: [
    "video_json", "blocks", "groups", "composition", "smart_groups", "faceless_scenes", "faceless_template",
    "voice_settings_map", "video_captions",
  ],
  internal: ["workspace_id"],
  serviceSet: ["video_user_id", "video_created_at"],
  fieldRules: {
    video_format: z.enum(VIDEO_FORMATS),
    video_name: z.string().max(500),
    faceless_target_duration: z.number().min(0).max(86_400),
  },
  virtualFields: {
    folder_ids: {
      graphqlType: "StringList",
      description: "Folders holding this video, in the order they were given.",
      select: { folder_links: { select: { folder_id: true }, orderBy: { position: "asc" } } },
      resolve: (row) => ((row.folder_links as { folder_id: string }[] | undefined) ?? []).map((link) => link.folder_id),
      input: z.array(z.string().max(64)).max(100),
      write: writeVideoFolders,
      filter: folderIdsCondition,
    },
  },
  stampOnCreate: (auth) => ({ video_user_id: auth.keyId }),
  description: "A video project: timeline, blocks, metadata and generation settings.",
});
