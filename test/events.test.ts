// Events (contract 6; src/events/*): the workspace's event log (GET /api/v1/events, by cursor,
// newest first, filtered by type; GET /events/{event_id}), the catalog of the 56 kinds
// (GET /api/v1/events/types), and the live GraphQL subscription `events(types)` over SSE, which
// sends only the kinds asked for and only those the key may read.
//
// This file runs workers (the dispatcher publishes live events), so it gets a PostgreSQL database
// and a Redis of its own: its dispatcher must not take other files' outbox events.
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "./support/wait.js";
import { createFixture, isolatedEnvironment, useService, type ApiResponse, type Client } from "./support/service.js";

const environment = isolatedEnvironment("events", { runWorkers: true, outboundAllow: ["127.0.0.1", "::1"], dispatchIntervalMs: 100 });
const overrides = environment.overrides;
const service = useService(overrides);

/** The 56 event kinds, as contract section 6 lists them. */
const CONTRACT_EVENTS = [
  "render.started", "render.completed", "render.failed",
  "generation.completed", "generation.failed",
  "music.completed", "music.failed",
  "post.published", "post.failed",
  "flow.completed", "flow.failed",
  "agent_execution.completed",
  "action.completed", "action.failed",
  "credits.low",
  "webhook.test",
  ...["video", "folder", "character", "agent", "flow", "slideshow", "template", "video_style", "smart_group_config", "custom_video_type", "scheduled_post", "character_tag"].flatMap(
    (kind) => [`${kind}.created`, `${kind}.updated`, `${kind}.deleted`],
  ),
  "asset.created", "asset.deleted",
  "playground_generation.updated", "playground_generation.deleted",
];

function expectError(response: ApiResponse, status: number, code: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.body?.error?.code, response.text).toBe(code);
}

async function create(client: Client, resource: "videos" | "folders", body: Record<string, unknown>) {
  const created = await client.post(`/api/v1/${resource}`, body);
  expect(created.status, created.text).toBe(201);
  return created.body as Record<string, any>;
}

// ---- the event log -----------------------------------------------------------------------------

describe("GET /api/v1/events", () => {
  it("lists the workspace's events newest first, by cursor, each caused by a request", async () => {
    const { client } = await createFixture(service);
    const video = await create(client, "videos", { video_name: "evented video" });
    const folder = await create(client, "folders", { folder_name: "evented folder" });

    const all = await client.get("/api/v1/events");
    expect(all.status, all.text).toBe(200);
    expect(all.body).toMatchObject({ object: "list", has_more: false, next_cursor: null });
    expect(all.body.data.map((event: { type: string }) => event.type)).toEqual(["folder.created", "video.created"]);
    const [folderEvent, videoEvent] = all.body.data;
    expect(videoEvent).toMatchObject({ object: "event", type: "video.created", event_livemode: true, caused_by_request_id: video.request_id, data: { object: { video_id: video.video_id, video_name: "evented video" } } });
    expect(folderEvent).toMatchObject({ object: "event", type: "folder.created", event_livemode: true, caused_by_request_id: folder.request_id, data: { object: { folder_id: folder.folder_id } } });
    expect(videoEvent.event_id).toMatch(/^evt_[0-9A-Za-z]{22}$/);
    expect(videoEvent).not.toHaveProperty("workspace_id");
    expect(videoEvent).not.toHaveProperty("seq");
    expect(videoEvent).not.toHaveProperty("dispatched_at");

    const first = await client.get("/api/v1/events?limit=1");
    expect(first.body.data.map((event: { event_id: string }) => event.event_id)).toEqual([folderEvent.event_id]);
    expect(first.body.has_more).toBe(true);
    expect(typeof first.body.next_cursor).toBe("string");
    const second = await client.get(`/api/v1/events?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.status, second.text).toBe(200);
    expect(second.body.data.map((event: { event_id: string }) => event.event_id)).toEqual([videoEvent.event_id]);
    expect(second.body.has_more).toBe(false);

    // An update and a delete add their own events, newest first.
    expect((await client.patch(`/api/v1/videos/${video.video_id}`, { video_name: "renamed" })).status).toBe(200);
    expect((await client.delete(`/api/v1/folders/${folder.folder_id}`)).status).toBe(200);
    const later = await client.get("/api/v1/events");
    expect(later.body.data.map((event: { type: string }) => event.type)).toEqual(["folder.deleted", "video.updated", "folder.created", "video.created"]);
    expect(later.body.data[1].data.object.video_name).toBe("renamed");
  });

  it("filters by type", async () => {
    const { client } = await createFixture(service);
    await create(client, "videos", { video_name: "a" });
    await create(client, "folders", { folder_name: "b" });
    await create(client, "videos", { video_name: "c" });

    const videos = await client.get("/api/v1/events?type=video.created");
    expect(videos.status, videos.text).toBe(200);
    expect(videos.body.data.map((event: { type: string; data: { object: { video_name: string } } }) => [event.type, event.data.object.video_name])).toEqual([
      ["video.created", "c"],
      ["video.created", "a"],
    ]);
    const folders = await client.get("/api/v1/events?type=folder.created");
    expect(folders.body.data).toHaveLength(1);
    const both = await client.get(`/api/v1/events?type[in]=${encodeURIComponent("video.created,folder.created")}&include_total=true`);
    expect(both.status, both.text).toBe(200);
    expect(both.body.total).toBe(3);
    expect((await client.get("/api/v1/events?type=render.completed")).body.data).toEqual([]);
  });

  it("gets one event; another workspace's event is refused and never listed", async () => {
    const owner = await createFixture(service);
    const stranger = await createFixture(service);
    const video = await create(owner.client, "videos", { video_name: "private video" });
    const [event] = (await owner.client.get("/api/v1/events")).body.data;

    const one = await owner.client.get(`/api/v1/events/${event.event_id}`);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({ object: "event", event_id: event.event_id, type: "video.created", data: { object: { video_id: video.video_id } } });

    expectError(await stranger.client.get(`/api/v1/events/${event.event_id}`), 403, "workspace_mismatch");
    expect((await stranger.client.get("/api/v1/events")).body.data).toEqual([]);
    expect((await stranger.client.get("/api/v1/events?type=video.created")).body.data).toEqual([]);
    expectError(await owner.client.get("/api/v1/events/evt_0000000000000000000000"), 404, "not_found");
  });

  it("needs webhooks:read", async () => {
    const fixture = await createFixture(service);
    const noWebhooks = (await fixture.newKey({ scopes: ["videos:*", "folders:*"] })).client;
    expectError(await noWebhooks.get("/api/v1/events"), 403, "insufficient_scope");
    expectError(await noWebhooks.get("/api/v1/events/types"), 403, "insufficient_scope");
    const reader = (await fixture.newKey({ scopes: ["webhooks:read"] })).client;
    expect((await reader.get("/api/v1/events")).status).toBe(200);
  });

  it("records nothing for an sk_test_ key's simulated write", async () => {
    const fixture = await createFixture(service);
    const testKey = await fixture.newKey({ mode: "test" });
    const simulated = await testKey.client.post("/api/v1/videos", { video_name: "simulated" });
    expect(simulated.status, simulated.text).toBe(201);
    expect(simulated.body.livemode).toBe(false);
    expect((await fixture.client.get("/api/v1/events")).body.data).toEqual([]);
  });
});

describe("GET /api/v1/events/types", () => {
  it("lists exactly the 56 kinds of the contract, each with description, scope_group and payload", async () => {
    expect(CONTRACT_EVENTS).toHaveLength(56);
    const { client } = await createFixture(service);
    const types = await client.get("/api/v1/events/types");
    expect(types.status, types.text).toBe(200);
    expect(types.body.object).toBe("list");
    const data = types.body.data as { object: string; type: string; description: string; scope_group: string; payload: string }[];
    expect(data).toHaveLength(56);
    expect(data.map((kind) => kind.type).sort()).toEqual([...CONTRACT_EVENTS].sort());
    for (const kind of data) {
      expect(kind.object, kind.type).toBe("event_type");
      expect(kind.description.length, kind.type).toBeGreaterThan(5);
      expect(kind.payload.length, kind.type).toBeGreaterThan(0);
      expect(kind.scope_group, kind.type).toMatch(/^[a-z_]+$/);
    }
    const byType = new Map(data.map((kind) => [kind.type, kind]));
    expect(byType.get("video.created")!.scope_group).toBe("videos");
    expect(byType.get("folder.deleted")!.scope_group).toBe("folders");
    expect(byType.get("render.completed")!.scope_group).toBe("renders");
    expect(byType.get("webhook.test")!.scope_group).toBe("webhooks");
    expect(byType.get("post.published")!.payload).toMatch(/target_accounts/);
    expect(byType.get("credits.low")!.payload).toMatch(/shortfall/);
    expect(byType.get("generation.failed")!.payload).toMatch(/credits/);

    const graphql = await client.graphql(`{ event_types { data { type scope_group } } }`);
    expect(graphql.body.errors, graphql.text).toBeUndefined();
    expect(graphql.body.data.event_types.data).toHaveLength(56);
  });
});

// ---- live events -------------------------------------------------------------------------------

interface LiveMessage {
  event?: string;
  data: any;
}

interface Subscription {
  messages: LiveMessage[];
  /** The event objects received so far (payloads of `next` messages). */
  events(): { id: string; type: string; data: any }[];
  close(): Promise<void>;
}

const open: Subscription[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((subscription) => subscription.close()));
});

/** POST /graphql with Accept: text/event-stream, read with fetch as the stream comes in. */
async function subscribe(key: string, query: string): Promise<Subscription> {
  const controller = new AbortController();
  const response = await fetch(`${service.url}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ query }),
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const messages: LiveMessage[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const reading = (async () => {
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split("\n");
          const data = lines.filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trim()).join("\n");
          if (!data) continue; // keep-alive comments
          messages.push({ event: lines.find((line) => line.startsWith("event:"))?.slice(6).trim(), data: JSON.parse(data) });
        }
      }
    } catch {
      // aborted
    }
  })();
  const subscription: Subscription = {
    messages,
    events: () => messages.filter((message) => message.data?.data?.events).map((message) => message.data.data.events),
    close: async () => {
      controller.abort();
      await reading;
    },
  };
  open.push(subscription);
  return subscription;
}

/** Waits until the service listens on the workspace's live channel in Redis. */
async function listening(workspaceId: string): Promise<void> {
  const channel = `workspace-events:${workspaceId}`;
  await waitFor(`a Redis subscriber on ${channel}`, async () => {
    const [, count] = (await service.service.redis.pubsub("NUMSUB", channel)) as [string, number];
    return Number(count) >= 1;
  });
}

describe("subscription events(types) over SSE", () => {
  it("streams the video.created caused by a REST write made after subscribing, and not a folder.created", async () => {
    const { client, key, workspaceId } = await createFixture(service);
    const subscription = await subscribe(key, `subscription { events(types: ["video.*"]) { id type data } }`);
    await listening(workspaceId);

    // The folder comes first: its event is published before the video's, so by the time the
    // video event arrives the folder event would have arrived too.
    await create(client, "folders", { folder_name: "not streamed" });
    const video = await create(client, "videos", { video_name: "streamed video" });

    const [event] = await waitFor("the video.created event", () => {
      const events = subscription.events();
      return events.some((item) => item.type === "video.created") ? events : undefined;
    });
    expect(subscription.events().map((item) => item.type)).toEqual(["video.created"]);
    expect(event!.id).toMatch(/^evt_/);
    expect(event!.data.object).toMatchObject({ video_id: video.video_id, video_name: "streamed video" });
    expect(subscription.messages.every((message) => message.event === undefined || message.event === "next")).toBe(true);

    // The same event is in the log under the same id.
    const logged = await client.get(`/api/v1/events/${event!.id}`);
    expect(logged.body).toMatchObject({ type: "video.created", data: { object: { video_id: video.video_id } } });
  });

  it("streams only the workspace's own events", async () => {
    const mine = await createFixture(service);
    const theirs = await createFixture(service);
    const subscription = await subscribe(mine.key, `subscription { events { type data } }`);
    await listening(mine.workspaceId);
    await create(theirs.client, "videos", { video_name: "someone else's" });
    await create(mine.client, "videos", { video_name: "mine" });
    await waitFor("my video event", () => subscription.events().length >= 1);
    expect(subscription.events().map((item) => item.data.object.video_name)).toEqual(["mine"]);
  });

  it("does not send video events to a key without videos:read, even subscribed to *", async () => {
    const fixture = await createFixture(service);
    const limited = await fixture.newKey({ scopes: ["folders:read"] });
    const subscription = await subscribe(limited.key, `subscription { events(types: ["*"]) { id type data } }`);
    await listening(fixture.workspaceId);

    // The video comes first: once the folder event is in, the video event would be too.
    await create(fixture.client, "videos", { video_name: "hidden video" });
    const folder = await create(fixture.client, "folders", { folder_name: "visible folder" });
    await waitFor("the folder.created event", () => subscription.events().some((item) => item.type === "folder.created"));
    expect(subscription.events().map((item) => item.type)).toEqual(["folder.created"]);
    expect(subscription.events()[0]!.data.object.folder_id).toBe(folder.folder_id);
  });

  it("refuses a pattern that names no event", async () => {
    const { key } = await createFixture(service);
    const subscription = await subscribe(key, `subscription { events(types: ["nothing.*"]) { id } }`);
    const [message] = await waitFor("an error message", () => (subscription.messages.length >= 1 ? subscription.messages : undefined));
    expect(message!.data.errors?.[0]?.extensions?.code, JSON.stringify(message!.data)).toBe("invalid_request");
  });
});
