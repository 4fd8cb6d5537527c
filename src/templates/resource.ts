// Templates, video styles, smart-group configs and custom video types (contract 2.2): the
// reusable building blocks of videos, all guarded by the `templates` scope group.
import { z } from "zod";
import { defineResource } from "../registry/resource.js";
import { VIDEO_FORMATS } from "../contract.js";

const name = z.string().trim().min(1).max(200);
const description = z.string().max(10_000);
const label = z.string().max(100);
const url = z.url({ protocol: /^https?$/ }).max(4096);

export const templates = defineResource({
  name: "templates",
  kind: "template",
  model: "Template",
  idField: "template_id",
  idPrefix: "template",
  scopeGroup: "templates",
  createdAtField: "created_at",
  routes: ["list", "get", "create", "update", "delete"],
  bulk: true,
  sortable: ["created_at", "updated_at", "name"],
  filterable: ["category", "sub_category", "is_public", "created_at"],
  searchable: ["name", "description"],
  heavy: ["template_data", "blocks", "composition"],
  internal: ["workspace_id"],
  serviceSet: ["created_at", "updated_at"],
  fieldRules: { name, description, category: label, sub_category: label, video_format: z.enum(VIDEO_FORMATS), thumbnail_url: url },
  description: "A saved video template.",
});

export const videoStyles = defineResource({
  name: "video_styles",
  kind: "video_style",
  model: "VideoStyle",
  idField: "style_id",
  idPrefix: "video_style",
  scopeGroup: "templates",
  createdAtField: "created_at",
  routes: ["list", "get", "create", "update", "delete"],
  bulk: true,
  sortable: ["created_at", "updated_at", "name"],
  filterable: ["category", "is_public", "created_at"],
  searchable: ["name", "description"],
  heavy: ["style_data", "layer_styles"],
  internal: ["workspace_id"],
  serviceSet: ["created_at", "updated_at"],
  fieldRules: { name, description, category: label, thumbnail_url: url },
  description: "A reusable style preset applied to timelines.",
});

export const smartGroupConfigs = defineResource({
  name: "smart_group_configs",
  kind: "smart_group_config",
  model: "SmartGroupConfig",
  idField: "config_id",
  idPrefix: "smart_group_config",
  scopeGroup: "templates",
  createdAtField: "created_at",
  routes: ["list", "get", "create", "update", "delete"],
  bulk: true,
  sortable: ["created_at", "updated_at", "name"],
  filterable: ["type", "base_type", "category", "created_at"],
  searchable: ["name", "description"],
  heavy: ["layer_mappings"],
  internal: ["workspace_id"],
  serviceSet: ["created_at", "updated_at"],
  fieldRules: { name, description, type: z.string().trim().min(1).max(64), base_type: z.string().max(64), category: label },
  description: "A custom smart-group definition used by the timeline editor.",
});

export const customVideoTypes = defineResource({
  name: "custom_video_types",
  kind: "custom_video_type",
  model: "CustomVideoType",
  idField: "config_id",
  idPrefix: "custom_video_type",
  scopeGroup: "templates",
  createdAtField: "created_at",
  routes: ["list", "get", "create", "update", "delete"],
  bulk: true,
  sortable: ["created_at", "updated_at", "name"],
  filterable: ["type", "is_public", "created_at"],
  searchable: ["name", "description"],
  heavy: [],
  internal: ["workspace_id"],
  serviceSet: ["created_at", "updated_at"],
  fieldRules: { name, description, type: z.string().max(64) },
  description: "A user-defined video type.",
});
