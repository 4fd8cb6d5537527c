// Scheduled posts and the social accounts they go out on (contract 2.2), guarded by the
// `publishing` scope group. The contract names both ids `_id`; Prisma field names cannot start
// with an underscore, so the API fields are post_id and account_id over `_id` columns.
import { z } from "zod";
import { defineResource } from "../registry/resource.js";
import { ApiError } from "../errors/api-error.js";
import { checkSchedule } from "./scheduling.js";

/** Statuses of a scheduled post (docs/publishing.md); only a `scheduled` post may still change. */
export const POST_STATUSES = ["scheduled", "rendering", "publishing", "published", "partially_published", "failed"] as const;

export const scheduledPosts = defineResource({
  name: "scheduled_posts",
  kind: "scheduled_post",
  model: "ScheduledPost",
  idField: "_id",
  idColumn: "post_id",
  idPrefix: "scheduled_post",
  scopeGroup: "publishing",
  createdAtField: "created_at",
  routes: ["list", "get", "create", "update", "delete"],
  bulk: true,
  sortable: ["scheduled_at", "created_at", "updated_at"],
  filterable: ["status", "platform", "video_id", "scheduled_at", "created_at"],
  searchable: ["caption", "title"],
  heavy: [],
  internal: ["workspace_id"],
  // The publisher moves status and fills the outcome.
  serviceSet: ["created_at", "updated_at", "status", "published_at", "platform_post_url", "error_message", "target_accounts", "render_id"],
  fieldRules: {
    platform: z.string().trim().min(1).max(64),
    title: z.string().max(500),
    caption: z.string().max(10_000),
  },
  references: {
    video_id: { resource: "videos", relation: "video" },
    account_id: { resource: "social_accounts", relation: "account" },
  },
  // Every create and reschedule goes through the one scheduling service (./scheduling.ts): the
  // action, REST, GraphQL and bulk alike. Once the publisher has taken a post (rendering,
  // publishing) or it went out, it is read-only.
  async beforeWrite(tx, write) {
    const { mode, existing } = write;
    if (mode === "create" || (mode === "update" && existing?.status === "scheduled")) return checkSchedule(tx, write);
    if (!existing || existing.status === "scheduled") return;
    throw new ApiError("conflict", `The scheduled post is ${String(existing.status)}: it can no longer be ${mode === "delete" ? "deleted" : "changed"}.`, {
      details: { status: existing.status },
      hint: "Only a post still `scheduled` can be updated or deleted.",
    });
  },
  description: "A post queued for publication on a connected account.",
});

/** Connected from the dashboard; read-only through the API (contract 2.2). */
export const socialAccounts = defineResource({
  name: "social_accounts",
  kind: "social_account",
  model: "SocialAccount",
  idField: "_id",
  idColumn: "account_id",
  idPrefix: "social_account",
  scopeGroup: "publishing",
  createdAtField: "created_at",
  routes: ["list", "get"],
  sortable: ["created_at", "updated_at"],
  filterable: ["platform", "status", "created_at"],
  searchable: ["account_name"],
  heavy: ["platform_metadata"],
  // Credentials are sealed at rest and never shown (docs/publishing.md).
  internal: ["workspace_id", "credentials_encrypted"],
  serviceSet: ["created_at", "updated_at", "status"],
  description: "A connected publishing destination.",
});
