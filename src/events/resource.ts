// The workspace's recent events (contract 6, issue: webhooks): every event written to the outbox,
// readable by cursor with the `webhooks:read` scope, as delivered to webhook endpoints.
import { defineResource } from "../registry/resource.js";

export const events = defineResource({
  name: "events",
  kind: "event",
  model: "OutboxEvent",
  typeName: "Event",
  idField: "event_id",
  idPrefix: "event",
  scopeGroup: "webhooks",
  createdAtField: "created_at",
  routes: ["list", "get"],
  sortable: ["created_at"],
  filterable: ["type", "created_at"],
  // The answer envelope's own request_id and livemode describe the request reading the event.
  fieldAliases: { request_id: "caused_by_request_id", livemode: "event_livemode" },
  searchable: [],
  heavy: [],
  internal: ["workspace_id", "seq", "dispatched_at"],
  serviceSet: [],
  description: "Something that happened in the workspace, as sent to webhook endpoints.",
  platform: true,
});
