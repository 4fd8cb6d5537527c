// Videos: video projects with timeline, blocks and generation settings (contract 2.2, 2.3).
import { z } from "zod";
import { defineResource } from "../registry/resource.js";
import { linkedIdsField } from "../resources/linked-ids.js";
import { TIMELINE_FIELD_RULES } from "./timeline/index.js";
import { compositionShape } from "./timeline/composition.js";
import { assertCompositionDrawable } from "./timeline/composition-checks.js";

import { VIDEO_FORMATS } from "../contract.js";

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
    // The timeline model (src/video-model/timeline/, docs/timeline.md): checked on every write.
    ...TIMELINE_FIELD_RULES,
  },
  virtualFields: {
    // Folders of the workspace that hold videos (folder_scope 'video').
    folder_ids: linkedIdsField({
      description: "Folders holding this video, in the order they were given.",
      links: "folder_links",
      linkModel: "VideoFolder",
      ownerColumn: "video_id",
      targetColumn: "folder_id",
      targetModel: "Folder",
      targetKind: "folder",
      targetWhere: { folder_scope: "video" },
      targetMismatch: (folder) => `Folder '${String(folder.folder_id)}' holds ${String(folder.folder_scope)} items, not videos.`,
    }),
  },
  // A composition's text must fit and its fonts draw it on the video's frame, and its media
  // references name the workspace's own records (src/video-model/timeline/composition-checks.ts):
  // checked when the composition or the format is written.
  async beforeWrite(tx, { mode, input, existing, context }) {
    if (mode === "delete" || !input || (input.composition === undefined && input.video_format === undefined)) return;
    const stored = input.composition !== undefined ? input.composition : existing?.composition;
    // A row written before the model existed is checked when its composition is next written.
    const composition = compositionShape.safeParse(stored ?? undefined);
    if (!composition.success) return;
    const format = (input.video_format ?? existing?.video_format) as string | null | undefined;
    await assertCompositionDrawable(tx, { workspaceId: context.auth.workspaceId, signer: context.services.files.signer }, composition.data, format);
  },
  stampOnCreate: (auth) => ({ video_user_id: auth.keyId }),
  children: { renders: { resource: "renders", relation: "renders" } },
  description: "A video project: timeline, blocks, metadata and generation settings.",
});
