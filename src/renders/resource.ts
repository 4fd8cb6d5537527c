// Renders: render jobs and their output files (contract 2.2). Written by renders.create and the
// render workers; read-only as a resource.
import { defineResource } from "../registry/resource.js";

export const renders = defineResource({
  name: "renders",
  kind: "render",
  model: "Render",
  idField: "render_id",
  idPrefix: "render",
  scopeGroup: "renders",
  createdAtField: "render_creation_date",
  routes: ["list", "get"],
  sortable: ["render_creation_date"],
  filterable: ["render_status", "video_id", "video_type_id", "render_creation_date"],
  searchable: [],
  heavy: [],
  // output_key and output_size_bytes describe the stored file; output_url (signed) is what clients use.
  internal: ["workspace_id", "output_key", "output_size_bytes", "output_keys", "segment_hashes"],
  serviceSet: [
    "render_creation_date", "render_updated_at", "render_started_at", "render_completed_at", "render_status", "progress", "output_url",
    "thumbnail_url", "duration_seconds", "credits_consumed", "error_code", "error_message", "output_format", "outputs", "quality", "segments",
  ],
  references: { video_id: { resource: "videos", relation: "video" } },
  description: "A render job and its output file.",
});
