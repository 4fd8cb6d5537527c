// The 56 event kinds of contract section 6, typed: what each means, the scope group whose read
// scope lets a key see it (live subscriptions, GET /events), and what its `data.object` holds.
import type { ScopeGroup } from "../auth/scopes.js";

export interface EventKind {
  type: string;
  description: string;
  /** A key sees the event with `<group>:read`. */
  scopeGroup: ScopeGroup;
  /** What data.object is. */
  payload: string;
}

const RECORD_KINDS: { kind: string; group: ScopeGroup; label: string; actions: ("created" | "updated" | "deleted")[] }[] = [
  { kind: "video", group: "videos", label: "video", actions: ["created", "updated", "deleted"] },
  { kind: "folder", group: "folders", label: "folder", actions: ["created", "updated", "deleted"] },
  { kind: "character", group: "characters", label: "character", actions: ["created", "updated", "deleted"] },
  { kind: "agent", group: "agents", label: "agent", actions: ["created", "updated", "deleted"] },
  { kind: "flow", group: "flows", label: "flow", actions: ["created", "updated", "deleted"] },
  { kind: "slideshow", group: "videos", label: "slideshow", actions: ["created", "updated", "deleted"] },
  { kind: "template", group: "templates", label: "template", actions: ["created", "updated", "deleted"] },
  { kind: "video_style", group: "templates", label: "video style", actions: ["created", "updated", "deleted"] },
  { kind: "smart_group_config", group: "templates", label: "smart-group config", actions: ["created", "updated", "deleted"] },
  { kind: "custom_video_type", group: "templates", label: "custom video type", actions: ["created", "updated", "deleted"] },
  { kind: "scheduled_post", group: "publishing", label: "scheduled post", actions: ["created", "updated", "deleted"] },
  { kind: "character_tag", group: "characters", label: "character tag", actions: ["created", "updated", "deleted"] },
  { kind: "asset", group: "assets", label: "asset", actions: ["created", "deleted"] },
  { kind: "playground_generation", group: "generations", label: "playground generation", actions: ["updated", "deleted"] },
];

const RECORD_EVENTS: EventKind[] = RECORD_KINDS.flatMap(({ kind, group, label, actions }) =>
  actions.map((action) => ({
    type: `${kind}.${action}`,
    description: `A ${label} was ${action} through the API or the dashboard.`,
    scopeGroup: group,
    payload: action === "deleted" ? `the ${label} as it was before deletion` : `the ${label} record after the change`,
  })),
);

const OPERATION_EVENTS: EventKind[] = [
  { type: "render.started", description: "A worker picked a queued render up and began.", scopeGroup: "renders", payload: "the render record (render_status rendering)" },
  { type: "render.completed", description: "A render finished and its output URL is available.", scopeGroup: "renders", payload: "the render record with output_url" },
  { type: "render.failed", description: "A render stopped on an error.", scopeGroup: "renders", payload: "the render record with error_code and error_message" },
  { type: "generation.completed", description: "An AI generation (image, video, audio) produced its result.", scopeGroup: "generations", payload: "the generation record with its output" },
  { type: "generation.failed", description: "An AI generation failed.", scopeGroup: "generations", payload: "the generation record with error_message and credits_consumed (credits already spent)" },
  { type: "music.completed", description: "A music generation finished and its tracks are hosted.", scopeGroup: "music", payload: "the music generation record with tracks" },
  { type: "music.failed", description: "A music generation failed; the credits it reserved were refunded.", scopeGroup: "music", payload: "the music generation record with error_message and refunded_credits" },
  { type: "post.published", description: "A scheduled post went out; also fired on a partial publish.", scopeGroup: "publishing", payload: "the scheduled post with target_accounts: the outcome per account" },
  { type: "post.failed", description: "A scheduled post could not be published.", scopeGroup: "publishing", payload: "the scheduled post with error_message and target_accounts" },
  { type: "flow.completed", description: "A flow execution reached its end.", scopeGroup: "flows", payload: "the flow execution record" },
  { type: "flow.failed", description: "A flow execution stopped on an error.", scopeGroup: "flows", payload: "the flow execution record with error_message" },
  { type: "agent_execution.completed", description: "An agent finished running.", scopeGroup: "agents", payload: "the agent execution record with its result" },
  { type: "action.completed", description: "A /v1/actions/* call succeeded (audit feed).", scopeGroup: "usage", payload: "{ action, request_id, key_id, livemode, credits_spent }" },
  { type: "action.failed", description: "A /v1/actions/* call returned an error.", scopeGroup: "usage", payload: "{ action, request_id, key_id, livemode, error: { code, type, status, message } }" },
  { type: "credits.low", description: "A call was refused for lack of credits.", scopeGroup: "usage", payload: "{ action_type, required, available, shortfall }" },
  { type: "webhook.test", description: "Sent by POST /api/v1/webhooks/{id}/test; never emitted otherwise.", scopeGroup: "webhooks", payload: "{ endpoint_id, message }" },
];

export const EVENT_KINDS: readonly EventKind[] = [...OPERATION_EVENTS, ...RECORD_EVENTS];

const byType = new Map(EVENT_KINDS.map((kind) => [kind.type, kind]));

export function eventKind(type: string): EventKind | undefined {
  return byType.get(type);
}

/** Families a subscription may name, such as `video.*` (`*` is checked on its own). */
const EVENT_FAMILIES: ReadonlySet<string> = new Set(EVENT_KINDS.map((kind) => `${kind.type.split(".")[0]}.*`));

/** Does a subscription pattern (name, family or *) cover an event type? */
export function patternCovers(pattern: string, type: string): boolean {
  if (pattern === "*") return true;
  if (pattern.endsWith(".*")) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

/** Is a pattern one a client may subscribe to? */
export function isKnownPattern(pattern: string): boolean {
  return pattern === "*" || byType.has(pattern) || EVENT_FAMILIES.has(pattern);
}
