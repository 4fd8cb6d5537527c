// The event catalog (GET /api/v1/events/types) and live events: the GraphQL subscription
// `events(types)` streams the key's workspace events over SSE, each only if the key's scopes let
// it read that kind of event.
import { Repeater } from "graphql-yoga";
import { builder } from "../graphql/builder.js";
import type { GraphQLContext } from "../graphql/context.js";
import { definePlatformOperation } from "../registry/operations.js";
import { hasScope } from "../auth/scopes.js";
import { ApiError } from "../errors/api-error.js";
import { logger } from "../logger.js";
import { EVENT_KINDS, eventKind, isKnownPattern, patternCovers, type EventKind } from "../outbox/event-catalog.js";
import type { LiveEvent } from "../outbox/live.js";

const typesOperation = definePlatformOperation({
  rootType: "Query",
  fieldName: "event_types",
  method: "GET",
  path: "/events/types",
  scopes: ["webhooks:read"],
  successStatus: 200,
  input: "none",
  tag: "events",
  description: "Every event kind: its name, meaning, the scope group that reads it, and what data.object holds.",
});

const EventType = builder.objectRef<EventKind>("EventType").implement({
  fields: (t) => ({
    object: t.string({ resolve: () => "event_type" }),
    type: t.exposeString("type"),
    description: t.exposeString("description"),
    scope_group: t.exposeString("scopeGroup"),
    payload: t.exposeString("payload", { description: "What data.object holds." }),
  }),
});

const EventTypeList = builder.objectRef<readonly EventKind[]>("EventTypeList").implement({
  fields: (t) => ({
    object: t.string({ resolve: () => "list" }),
    data: t.field({ type: [EventType], resolve: (kinds) => [...kinds] }),
  }),
});

builder.queryField(typesOperation.fieldName, (t) =>
  t.field({
    type: EventTypeList,
    description: typesOperation.description,
    authScopes: { scopes: typesOperation.scopes },
    resolve: () => EVENT_KINDS,
  }),
);

const LiveEventType = builder.objectRef<LiveEvent>("LiveEvent").implement({
  description: "An event as webhook endpoints receive it.",
  fields: (t) => ({
    id: t.exposeID("id"),
    object: t.exposeString("object"),
    type: t.exposeString("type"),
    created: t.exposeInt("created"),
    livemode: t.exposeBoolean("livemode"),
    api_version: t.exposeString("api_version"),
    data: t.expose("data", { type: "JSON" }),
  }),
});

function visibleTo(context: GraphQLContext, event: LiveEvent): boolean {
  const kind = eventKind(event.type);
  return kind !== undefined && hasScope(context.auth.scopes, `${kind.scopeGroup}:read`);
}

builder.subscriptionType({ description: "Live streams, over SSE (Accept: text/event-stream)." });

builder.subscriptionField("events", (t) =>
  t.field({
    type: LiveEventType,
    description: "The workspace's events as they happen: names, families (video.*) or * (the default). Only kinds the key may read are sent.",
    args: { types: t.arg.stringList({ required: false }) },
    subscribe: (_root, args, context) => {
      const patterns = args.types?.length ? args.types : ["*"];
      const unknown = patterns.find((pattern) => !isKnownPattern(pattern));
      if (unknown) throw new ApiError("invalid_request", `'${unknown}' is not an event name, a family (video.*) or *.`, { param: "types" });
      const source = context.services.live.pubsub.subscribe("workspace-events", context.auth.workspaceId);
      return new Repeater<LiveEvent>(async (push, stop) => {
        // Detaches from the pubsub when the client goes away; a failure to detach is logged, not left unhandled.
        stop.then(() => source.return?.()).catch((error: unknown) => logger.warn({ err: error }, "live events source not closed"));
        for await (const event of source) {
          if (patterns.some((pattern) => patternCovers(pattern, event.type)) && visibleTo(context, event)) await push(event);
        }
        stop();
      });
    },
    resolve: (event) => event,
  }),
);
