// Scripts: video scripts with paragraphs, chapters, speakers, takes and research (contract 2.2).
// Read-only as a resource: the scripts.* actions write them.
import { defineResource } from "../registry/resource.js";

export const scripts = defineResource({
  name: "scripts",
  kind: "script",
  model: "Script",
  idField: "script_id",
  idPrefix: "script",
  scopeGroup: "scripts",
  createdAtField: "created_at",
  routes: ["list", "get"],
  sortable: ["updated_at", "created_at", "title"],
  filterable: ["language", "format", "structure", "video_id", "created_at", "updated_at"],
  searchable: ["title", "topic"],
  heavy: ["paragraphs", "snapshots", "research", "review_notes", "sources", "chapters"],
  internal: ["workspace_id"],
  serviceSet: ["created_at", "updated_at", "word_count"],
  references: { video_id: { resource: "videos", relation: "video" } },
  description: "A video script: paragraphs, chapters, speakers, takes and research.",
});
