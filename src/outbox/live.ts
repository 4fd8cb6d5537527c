// Live events across processes: the dispatcher (in a worker) publishes each event once through
// Redis; every API process relays them to its GraphQL subscribers.
import { createPubSub } from "graphql-yoga";
import { createRedisEventTarget } from "@graphql-yoga/redis-event-target";
import { Redis } from "ioredis";
import { logger } from "../logger.js";
import type { eventEnvelope } from "./envelope.js";

export type LiveEvent = ReturnType<typeof eventEnvelope>;

export function createLiveEvents(redisUrl: string) {
  const publishClient = new Redis(redisUrl, { lazyConnect: false });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false });
  // Without a listener ioredis reports every failed reconnect as an unhandled error event; the
  // clients reconnect on their own, and subscribers miss only what was published meanwhile.
  for (const client of [publishClient, subscribeClient]) client.on("error", (error) => logger.warn({ err: error }, "live events redis error"));
  const pubsub = createPubSub<{ "workspace-events": [workspaceId: string, event: LiveEvent] }>({
    eventTarget: createRedisEventTarget({ publishClient, subscribeClient }),
  });
  return {
    pubsub,
    publish(this: void, workspaceId: string, event: LiveEvent) {
      pubsub.publish("workspace-events", workspaceId, event);
    },
    close() {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}

export type LiveEvents = ReturnType<typeof createLiveEvents>;
