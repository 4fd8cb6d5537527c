// The request log (contract 4.7): every request the service answered, keyed by request_id and
// guarded by the `usage` group. Written by the service itself (src/guards/request-log-writer.ts);
// read-only through the API; kept for CUTROOM_REQUEST_LOG_RETENTION_DAYS (default 30).
import { defineResource } from "../registry/resource.js";

export const requestLogs = defineResource({
  name: "logs",
  kind: "request_log",
  model: "RequestLog",
  // The logged request's id and mode are named apart from the envelope's own request_id and livemode.
  idField: "logged_request_id",
  idPrefix: "request",
  scopeGroup: "usage",
  createdAtField: "created_at",
  routes: ["list", "get"],
  sortable: ["created_at", "duration_ms", "status"],
  filterable: ["status", "method", "path", "route", "error_code", "key_id", "idempotent_replay", "request_livemode", "created_at"],
  searchable: ["path"],
  heavy: [],
  internal: ["workspace_id"],
  serviceSet: [],
  description: "One API request: who sent it, what it asked, how it was answered and how long it took.",
  platform: true,
});
