// API keys as records (contract 5): listed and read like any resource under /api/v1/api_keys,
// guarded by the api_keys group. Secrets never appear: only a hash is stored. Creating, changing,
// rotating and revoking go through src/api-keys/service.ts (see graphql.ts for the routes).
import { defineResource } from "../registry/resource.js";

export const apiKeys = defineResource({
  name: "api_keys",
  kind: "api_key",
  model: "ApiKey",
  idField: "key_id",
  idPrefix: "api_key",
  scopeGroup: "api_keys",
  createdAtField: "created_at",
  routes: ["list", "get"],
  sortable: ["created_at", "name", "last_used_at"],
  filterable: ["mode", "purpose", "created_at", "revoked_at", "paused_at", "expires_at"],
  searchable: ["name"],
  heavy: [],
  internal: ["workspace_id", "secret_hash", "previous_secret_hash"],
  serviceSet: [],
  description: "An API key of the workspace: its scopes, allow-lists, limits and state. The secret is shown once, at creation or rotation.",
  platform: true,
});
