// Backgrounds: a curated shelf of background stills and loops (contract 2.2). Rows without a
// workspace are the global shelf every workspace reads; read-only through the API.
import { defineResource } from "../registry/resource.js";

export const backgrounds = defineResource({
  name: "backgrounds",
  kind: "background",
  model: "Background",
  idField: "background_ref",
  idPrefix: "background",
  scopeGroup: "backgrounds",
  createdAtField: "created_at",
  routes: ["list", "get"],
  sortable: ["sort_order", "created_at", "name"],
  filterable: ["kind", "orientation", "category", "tags", "is_loop", "created_at"],
  searchable: ["name", "description", "background_ref"],
  heavy: [],
  internal: ["workspace_id"],
  serviceSet: ["created_at", "updated_at"],
  visibility: "shared",
  description: "A background still or loop.",
});
