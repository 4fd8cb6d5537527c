// Webhook endpoints and their delivery history as records (contract 4.8), guarded by the
// `webhooks` group. Endpoints are created, changed, rotated, tested and deleted through
// src/webhooks/service.ts; deliveries are written by the dispatcher and the delivery job.
import { defineResource } from "../registry/resource.js";

export const webhookEndpoints = defineResource({
  name: "webhooks",
  kind: "webhook_endpoint",
  model: "WebhookEndpoint",
  idField: "endpoint_id",
  idPrefix: "webhook_endpoint",
  scopeGroup: "webhooks",
  createdAtField: "created_at",
  routes: ["list", "get"],
  sortable: ["created_at", "updated_at"],
  filterable: ["enabled", "created_at"],
  searchable: ["url", "description"],
  heavy: [],
  internal: ["workspace_id", "signing_secret", "previous_signing_secret"],
  serviceSet: [],
  graphqlExtras: {
    secret: {
      description: "The signing secret: present only in the answer to creation and rotation, null everywhere else.",
      resolve: (row) => (typeof row.revealed_secret === "string" ? row.revealed_secret : null),
    },
  },
  description: "A registered receiver of events: its URL, the events it subscribes to, and its state.",
  platform: true,
});

export const webhookDeliveries = defineResource({
  name: "webhook_deliveries",
  kind: "webhook_delivery",
  model: "WebhookDelivery",
  idField: "delivery_id",
  idPrefix: "webhook_delivery",
  scopeGroup: "webhooks",
  createdAtField: "created_at",
  routes: ["list", "get"],
  sortable: ["created_at", "updated_at"],
  filterable: ["endpoint_id", "event_id", "event_type", "status", "created_at"],
  searchable: [],
  heavy: [],
  internal: ["workspace_id", "locked_until"],
  serviceSet: [],
  virtualFields: {
    attempts: {
      graphqlType: "JSON",
      description: "Every attempt, oldest first: attempt_number, attempted_at, status_code, duration_ms, error, response_excerpt, succeeded.",
      select: {
        attempts: {
          select: { attempt_number: true, attempted_at: true, status_code: true, duration_ms: true, error: true, response_excerpt: true, succeeded: true },
          orderBy: { attempt_number: "asc" },
        },
      },
      resolve: (row) =>
        ((row.attempts as Record<string, unknown>[] | undefined) ?? []).map((attempt) => ({
          ...attempt,
          attempted_at: attempt.attempted_at instanceof Date ? attempt.attempted_at.toISOString() : attempt.attempted_at,
        })),
    },
  },
  description: "One event sent to one endpoint, with every attempt; kept 7 days.",
  platform: true,
});
