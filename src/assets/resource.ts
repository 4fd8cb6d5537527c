// Assets: files uploaded to the workspace library (contract 2.2). Created and deleted, never
// changed. The contract names the id `_id`; Prisma field names cannot start with an underscore,
// so the API field is asset_id over the `_id` column until the resource layer can alias names.
import { z } from "zod";
import { defineResource } from "../registry/resource.js";

export const assets = defineResource({
  name: "assets",
  kind: "asset",
  model: "Asset",
  idField: "_id",
  idColumn: "asset_id",
  idPrefix: "asset",
  scopeGroup: "assets",
  createdAtField: "provider_date_time_uploaded",
  routes: ["list", "get", "create", "delete"],
  bulk: true,
  sortable: ["provider_date_time_uploaded", "provider_file_name"],
  filterable: ["file_mime_type", "sync_method", "provider_file_id", "provider_date_time_uploaded"],
  searchable: ["provider_file_name"],
  heavy: [],
  internal: ["workspace_id"],
  serviceSet: ["provider_date_time_uploaded"],
  fieldRules: {
    provider_file_name: z.string().trim().min(1).max(500),
    provider_file_url: z.url({ protocol: /^https?$/ }).max(4096),
    provider_file_id: z.string().max(500),
    file_mime_type: z.string().max(255).regex(/^[\w.+-]+\/[\w.+-]+$/, "a MIME type such as image/png"),
    file_size_bytes: z.number().int().min(0),
    sync_method: z.string().trim().min(1).max(64),
    thumbnail_url: z.url({ protocol: /^https?$/ }).max(4096),
    width: z.number().int().min(1),
    height: z.number().int().min(1),
    duration_seconds: z.number().min(0),
  },
  description: "A file of the workspace library.",
});
