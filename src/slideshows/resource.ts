// Slideshows: slideshow projects with slides (contract 2.2), guarded by the `videos` group.
import { z } from "zod";
import { defineResource } from "../registry/resource.js";
import { VIDEO_FORMATS } from "../contract.js";

export const slideshows = defineResource({
  name: "slideshows",
  kind: "slideshow",
  model: "Slideshow",
  idField: "slideshow_id",
  idPrefix: "slideshow",
  scopeGroup: "videos",
  createdAtField: "created_at",
  routes: ["list", "get", "create", "update", "delete"],
  bulk: true,
  sortable: ["created_at", "updated_at", "slideshow_name"],
  filterable: ["slideshow_status", "character_id", "created_at"],
  searchable: ["slideshow_name"],
  heavy: ["slides"],
  internal: ["workspace_id"],
  // slideshow_status and export_url move with the slideshows.generate / export actions.
  serviceSet: ["created_at", "updated_at", "slideshow_status", "export_url"],
  fieldRules: {
    slideshow_name: z.string().trim().min(1).max(200),
    slideshow_format: z.enum(VIDEO_FORMATS),
  },
  references: { character_id: { resource: "characters", relation: "character" } },
  description: "A slideshow project with slides.",
});
