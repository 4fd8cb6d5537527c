// Voices: the shared global voice library plus workspace and personal voices (contract 2.2).
// Rows without a workspace are the global library every workspace reads; read-only here.
// labels.language, labels.gender and labels.accent filter on keys of the `labels` JSON column.
import { defineResource } from "../registry/resource.js";

export const voices = defineResource({
  name: "voices",
  kind: "voice",
  model: "Voice",
  idField: "voice_ref",
  idPrefix: "voice",
  scopeGroup: "voices",
  createdAtField: "created_at",
  routes: ["list", "get"],
  sortable: ["sort_order", "created_at", "display_name"],
  filterable: ["provider", "scope", "kind", "is_active", "labels.language", "labels.gender", "labels.accent", "connection_id", "created_at"],
  searchable: ["display_name", "description"],
  heavy: ["provider_meta"],
  internal: ["workspace_id"],
  serviceSet: ["created_at", "updated_at"],
  visibility: "shared",
  description: "A voice of the global library, the workspace, or a person.",
});
