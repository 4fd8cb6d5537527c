// Webhook endpoint routes (contract 4.8, src/webhooks/service.ts, resource.ts, graphql.ts): create
// (the secret shown once), list, get, update (url re-checked by the outbound guard, events
// validated), delete, the webhooks:read|write|delete scopes, workspace isolation, the test send,
// resending one delivery and recovering failed ones. Receivers are real node:http servers on
// 127.0.0.1 (allow-listed for this service).
//
// This file runs workers (resend and recover go through BullMQ and the dispatcher), so it gets a
// PostgreSQL database and a Redis of its own: its dispatcher must not fan out other files' events,
// and its workers must not take other files' delivery jobs (nor theirs ours).
import { describe, expect, it } from "vitest";
import { answer, startReceiver, verifySignature } from "./support/receiver.js";
import { sleep, waitFor } from "./support/wait.js";
import { createFixture, isolatedEnvironment, useService, type ApiResponse, type Client } from "./support/service.js";

const environment = isolatedEnvironment("webhooks", { runWorkers: true, outboundAllow: ["127.0.0.1", "::1"], webhookRetrySeconds: [0.2], webhookTimeoutMs: 1000, dispatchIntervalMs: 100 });
const overrides = environment.overrides;
const service = useService(overrides);
const prisma = () => service.service.database.prisma;

// ---- receivers, waiting, signatures ------------------------------------------------------------

function expectError(response: ApiResponse, status: number, code: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.body?.error?.code, response.text).toBe(code);
  return response.body.error;
}

async function createEndpoint(client: Client, body: Record<string, unknown>) {
  const created = await client.post("/api/v1/webhooks", body);
  expect(created.status, created.text).toBe(201);
  return created.body as Record<string, any>;
}

async function deliveriesOf(client: Client, endpointId: string) {
  const list = await client.get(`/api/v1/webhook_deliveries?endpoint_id=${endpointId}&limit=100`);
  expect(list.status, list.text).toBe(200);
  return list.body.data as Record<string, any>[];
}

// ---- endpoints ---------------------------------------------------------------------------------

describe("registering an endpoint", () => {
  it("answers 201 with the record and the signing secret, which no read ever shows again", async () => {
    const { client } = await createFixture(service);
    const receiver = await startReceiver();
    const created = await client.post("/api/v1/webhooks", { url: receiver.url, events: ["video.*"], description: "main hook" });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      object: "webhook_endpoint",
      url: receiver.url,
      events: ["video.*"],
      description: "main hook",
      enabled: true,
      disabled_reason: null,
      consecutive_failures: 0,
    });
    expect(created.body.endpoint_id).toMatch(/^we_[0-9A-Za-z]{22}$/);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{20,}$/);
    expect(created.body).not.toHaveProperty("signing_secret");
    expect(created.body).not.toHaveProperty("previous_signing_secret");
    expect(created.body).not.toHaveProperty("workspace_id");
    const endpointId = created.body.endpoint_id as string;
    const secret = created.body.secret as string;

    const fetched = await client.get(`/api/v1/webhooks/${endpointId}`);
    expect(fetched.status, fetched.text).toBe(200);
    expect(fetched.body).toMatchObject({ object: "webhook_endpoint", endpoint_id: endpointId, url: receiver.url, events: ["video.*"] });
    expect(fetched.body).not.toHaveProperty("secret");
    expect(fetched.body).not.toHaveProperty("signing_secret");
    expect(fetched.text).not.toContain(secret);

    const listed = await client.get("/api/v1/webhooks");
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.object).toBe("list");
    expect(listed.body.data.map((row: { endpoint_id: string }) => row.endpoint_id)).toEqual([endpointId]);
    expect(listed.body.data[0]).not.toHaveProperty("secret");
    expect(listed.text).not.toContain(secret);

    const graphql = await client.graphql(
      `query($id: ID!) { webhook_endpoint(endpoint_id: $id) { endpoint_id url secret } webhooks { data { endpoint_id secret } } }`,
      { id: endpointId },
    );
    expect(graphql.body.errors, graphql.text).toBeUndefined();
    expect(graphql.body.data.webhook_endpoint).toEqual({ endpoint_id: endpointId, url: receiver.url, secret: null });
    expect(graphql.body.data.webhooks.data).toEqual([{ endpoint_id: endpointId, secret: null }]);
  });

  it("shows the secret in the GraphQL answer to create_webhook_endpoint", async () => {
    const { client } = await createFixture(service);
    const receiver = await startReceiver();
    const created = await client.graphql(`mutation($input: WebhookEndpointCreateInput!) { create_webhook_endpoint(input: $input) { endpoint_id events secret } }`, {
      input: { url: receiver.url, events: ["*"] },
    });
    expect(created.body.errors, created.text).toBeUndefined();
    expect(created.body.data.create_webhook_endpoint.secret).toMatch(/^whsec_/);
    expect(created.body.data.create_webhook_endpoint.events).toEqual(["*"]);
  });

  it("accepts event names, families and *, and refuses unknown patterns with 422", async () => {
    const { client } = await createFixture(service);
    const receiver = await startReceiver();
    for (const events of [["video.created"], ["video.*"], ["*"], ["folder.*", "render.completed", "webhook.test", "credits.low", "playground_generation.updated"]]) {
      const created = await client.post("/api/v1/webhooks", { url: receiver.url, events });
      expect(created.status, `${JSON.stringify(events)}: ${created.text}`).toBe(201);
      expect(created.body.events).toEqual(events);
    }
    for (const events of [["video.exploded"], ["nothing.*"], ["video"], ["video.created", "*.created"], ["asset.updated"], []]) {
      const refused = await client.post("/api/v1/webhooks", { url: receiver.url, events });
      const error = expectError(refused, 422, "validation_failed");
      expect(error.details.issues[0].path, refused.text).toMatch(/^events/);
    }
    expectError(await client.post("/api/v1/webhooks", { events: ["*"] }), 422, "validation_failed");
    expectError(await client.post("/api/v1/webhooks", { url: receiver.url }), 422, "validation_failed");
    expectError(await client.post("/api/v1/webhooks", { url: receiver.url, events: ["*"], secret: "mine" }), 422, "validation_failed");
    expect((await client.get("/api/v1/webhooks")).body.data).toHaveLength(4);
  });
});

describe("updating and deleting an endpoint", () => {
  // (This service allow-lists 127.0.0.1 and ::1, so loopback names are reachable here; the refusals
  // of a service without an allow-list are in url-guard.test.ts.)
  it("re-checks a changed url with the outbound guard and validates events", async () => {
    const { client } = await createFixture(service);
    const receiver = await startReceiver();
    const other = await startReceiver();
    const endpoint = await createEndpoint(client, { url: receiver.url, events: ["video.*"] });
    const id = endpoint.endpoint_id as string;

    for (const [url, reason] of [
      ["https://10.0.0.1/hook", "address_not_public"],
      ["https://169.254.169.254/latest/meta-data/", "address_not_public"],
      ["https://[fd00::1]/hook", "address_not_public"],
      ["http://93.184.215.14/hook", "scheme_not_allowed"],
      ["https://user:pw@93.184.215.14/hook", "credentials_in_url"],
    ] as const) {
      const refused = await client.patch(`/api/v1/webhooks/${id}`, { url });
      const error = expectError(refused, 422, "validation_failed");
      expect(error.details.issues, refused.text).toEqual([expect.objectContaining({ path: "url", type: `url.${reason}` })]);
    }
    const badEvents = await client.patch(`/api/v1/webhooks/${id}`, { events: ["video.*", "video.teleported"] });
    expect(expectError(badEvents, 422, "validation_failed").details.issues[0].path).toMatch(/^events/);
    expectError(await client.patch(`/api/v1/webhooks/${id}`, { signing_secret: "whsec_mine" }), 422, "validation_failed");
    // Nothing of the refused changes stuck.
    expect((await client.get(`/api/v1/webhooks/${id}`)).body).toMatchObject({ url: receiver.url, events: ["video.*"] });

    const changed = await client.patch(`/api/v1/webhooks/${id}`, { url: other.url, events: ["folder.*", "video.deleted"], description: "changed" });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ object: "webhook_endpoint", endpoint_id: id, url: other.url, events: ["folder.*", "video.deleted"], description: "changed" });
    expect(changed.body.secret ?? null).toBeNull();
    expect((await client.get(`/api/v1/webhooks/${id}`)).body).toMatchObject({ url: other.url, events: ["folder.*", "video.deleted"] });

    const disabled = await client.patch(`/api/v1/webhooks/${id}`, { enabled: false });
    expect(disabled.body).toMatchObject({ enabled: false, disabled_reason: "disabled_by_client" });
    const enabled = await client.patch(`/api/v1/webhooks/${id}`, { enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null, consecutive_failures: 0 });

    expectError(await client.patch("/api/v1/webhooks/we_0000000000000000000000", { description: "x" }), 404, "not_found");
  });

  it("deletes an endpoint: it is gone from get and list", async () => {
    const { client } = await createFixture(service);
    const receiver = await startReceiver();
    const keep = await createEndpoint(client, { url: receiver.url, events: ["*"] });
    const gone = await createEndpoint(client, { url: receiver.url, events: ["*"] });
    const deleted = await client.delete(`/api/v1/webhooks/${gone.endpoint_id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toMatchObject({ object: "webhook_endpoint", endpoint_id: gone.endpoint_id, deleted: true });
    expectError(await client.get(`/api/v1/webhooks/${gone.endpoint_id}`), 404, "not_found");
    expectError(await client.delete(`/api/v1/webhooks/${gone.endpoint_id}`), 404, "not_found");
    expect((await client.get("/api/v1/webhooks")).body.data.map((row: { endpoint_id: string }) => row.endpoint_id)).toEqual([keep.endpoint_id]);
  });
});

describe("scopes and workspaces", () => {
  it("guards the routes with webhooks:read, webhooks:write and webhooks:delete", async () => {
    const fixture = await createFixture(service);
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(fixture.client, { url: receiver.url, events: ["*"] });
    const id = endpoint.endpoint_id as string;
    const reader = (await fixture.newKey({ scopes: ["webhooks:read"] })).client;
    const writer = (await fixture.newKey({ scopes: ["webhooks:write"] })).client;
    const deleter = (await fixture.newKey({ scopes: ["webhooks:delete"] })).client;
    const outsider = (await fixture.newKey({ scopes: ["videos:*", "folders:*"] })).client;

    const scope = (response: ApiResponse, required: string) => {
      const error = expectError(response, 403, "insufficient_scope");
      expect(error.details.required_scopes, response.text).toContain(required);
    };

    // read
    expect((await reader.get("/api/v1/webhooks")).status).toBe(200);
    expect((await reader.get(`/api/v1/webhooks/${id}`)).status).toBe(200);
    expect((await reader.get(`/api/v1/webhook_deliveries`)).status).toBe(200);
    scope(await reader.post("/api/v1/webhooks", { url: receiver.url, events: ["*"] }), "webhooks:write");
    scope(await reader.patch(`/api/v1/webhooks/${id}`, { description: "x" }), "webhooks:write");
    scope(await reader.post(`/api/v1/webhooks/${id}/test`), "webhooks:write");
    scope(await reader.post(`/api/v1/webhooks/${id}/rotate_secret`, {}), "webhooks:write");
    scope(await reader.delete(`/api/v1/webhooks/${id}`), "webhooks:delete");

    // write (which implies neither read nor delete)
    const written = await writer.post("/api/v1/webhooks", { url: receiver.url, events: ["video.*"] });
    expect(written.status, written.text).toBe(201);
    expect((await writer.patch(`/api/v1/webhooks/${id}`, { description: "by writer" })).status).toBe(200);
    scope(await writer.get("/api/v1/webhooks"), "webhooks:read");
    scope(await writer.get(`/api/v1/webhooks/${id}`), "webhooks:read");
    scope(await writer.delete(`/api/v1/webhooks/${id}`), "webhooks:delete");

    // delete
    scope(await deleter.get("/api/v1/webhooks"), "webhooks:read");
    scope(await deleter.post("/api/v1/webhooks", { url: receiver.url, events: ["*"] }), "webhooks:write");
    const removed = await deleter.delete(`/api/v1/webhooks/${written.body.endpoint_id}`);
    expect(removed.status, removed.text).toBe(200);

    // none of the three
    scope(await outsider.get("/api/v1/webhooks"), "webhooks:read");
    scope(await outsider.get(`/api/v1/webhooks/${id}`), "webhooks:read");
    scope(await outsider.get("/api/v1/webhook_deliveries"), "webhooks:read");
    scope(await outsider.post("/api/v1/webhooks", { url: receiver.url, events: ["*"] }), "webhooks:write");
    scope(await outsider.delete(`/api/v1/webhooks/${id}`), "webhooks:delete");
    const graphql = await outsider.graphql(`{ webhooks { data { endpoint_id } } }`);
    expect(graphql.body.errors?.[0]?.extensions?.code, graphql.text).toBe("insufficient_scope");

    expect(receiver.received).toHaveLength(0);
    expect((await fixture.client.get(`/api/v1/webhooks/${id}`)).body.description).toBe("by writer");
  });

  it("refuses another workspace's endpoint and deliveries with 403 workspace_mismatch", async () => {
    const owner = await createFixture(service);
    const stranger = await createFixture(service);
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(owner.client, { url: receiver.url, events: ["*"] });
    const id = endpoint.endpoint_id as string;
    const test = await owner.client.post(`/api/v1/webhooks/${id}/test`);
    expect(test.status, test.text).toBe(200);
    const deliveryId = test.body.delivery_id as string;

    expectError(await stranger.client.get(`/api/v1/webhooks/${id}`), 403, "workspace_mismatch");
    expectError(await stranger.client.patch(`/api/v1/webhooks/${id}`, { url: receiver.url }), 403, "workspace_mismatch");
    expectError(await stranger.client.delete(`/api/v1/webhooks/${id}`), 403, "workspace_mismatch");
    expectError(await stranger.client.post(`/api/v1/webhooks/${id}/test`), 403, "workspace_mismatch");
    expectError(await stranger.client.post(`/api/v1/webhooks/${id}/rotate_secret`, {}), 403, "workspace_mismatch");
    expectError(await stranger.client.post(`/api/v1/webhooks/${id}/deliveries/${deliveryId}/resend`), 403, "workspace_mismatch");
    expectError(await stranger.client.post(`/api/v1/webhooks/${id}/recover`, { since: new Date(0).toISOString() }), 403, "workspace_mismatch");
    expectError(await stranger.client.get(`/api/v1/webhook_deliveries/${deliveryId}`), 403, "workspace_mismatch");
    expect((await stranger.client.get("/api/v1/webhooks")).body.data).toEqual([]);
    expect((await stranger.client.get("/api/v1/webhook_deliveries")).body.data).toEqual([]);
    expect((await stranger.client.get(`/api/v1/webhook_deliveries?endpoint_id=${id}`)).body.data).toEqual([]);

    // The owner's endpoint is untouched and only the owner's test reached the receiver.
    expect((await owner.client.get(`/api/v1/webhooks/${id}`)).body).toMatchObject({ url: receiver.url, enabled: true });
    expect(receiver.received).toHaveLength(1);
  });
});

// ---- test send ---------------------------------------------------------------------------------

describe("POST /api/v1/webhooks/{id}/test", () => {
  it("sends a real signed webhook.test, reports the answer and records the delivery", async () => {
    const { client } = await createFixture(service);
    // An answer with control characters, an escape sequence and far more than 200 characters.
    const receiver = await startReceiver(answer(200, `\u0000\u0007hello\u001b[31m red\r\n${"y".repeat(600)}`));
    const endpoint = await createEndpoint(client, { url: receiver.url, events: ["video.created"] });
    const secret = endpoint.secret as string;

    const test = await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/test`);
    expect(test.status, test.text).toBe(200);
    expect(test.body).toMatchObject({ object: "webhook_test", endpoint_id: endpoint.endpoint_id, succeeded: true, status_code: 200, error: null });
    expect(test.body.delivery_id).toMatch(/^dlv_/);
    expect(test.body.event_id).toMatch(/^evt_/);
    expect(typeof test.body.duration_ms).toBe("number");
    expect(test.body.duration_ms).toBeGreaterThanOrEqual(0);
    const excerpt = test.body.response_excerpt as string;
    expect(excerpt.length).toBeGreaterThan(0);
    expect(excerpt.length).toBeLessThanOrEqual(200);
    // eslint-disable-next-line no-control-regex -- asserts that no control character got through
    expect(excerpt).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
    expect(excerpt.startsWith("hello")).toBe(true);

    // What the receiver got: one signed webhook.test with the delivery id of the report.
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request!.headers["x-service-event"]).toBe("webhook.test");
    expect(request!.headers["x-service-delivery"]).toBe(test.body.delivery_id);
    expect(request!.headers["content-type"]).toMatch(/^application\/json/);
    expect(verifySignature(request!.headers["x-service-signature"] as string, request!.body, secret)).toBe(true);
    const envelope = JSON.parse(request!.body);
    expect(envelope).toMatchObject({ id: test.body.event_id, object: "event", type: "webhook.test", livemode: true, data: { object: { endpoint_id: endpoint.endpoint_id } } });

    // The delivery log has it, with its one attempt.
    const deliveries = await deliveriesOf(client, endpoint.endpoint_id);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ object: "webhook_delivery", delivery_id: test.body.delivery_id, event_id: test.body.event_id, event_type: "webhook.test", status: "succeeded", attempt_count: 1, last_status_code: 200 });
    expect(deliveries[0]!.attempts).toEqual([expect.objectContaining({ attempt_number: 1, status_code: 200, succeeded: true, error: null })]);
    const one = await client.get(`/api/v1/webhook_deliveries/${test.body.delivery_id}`);
    expect(one.status, one.text).toBe(200);
    expect(one.body.attempts).toHaveLength(1);

    // webhook.test is never fanned out to subscribers: give the dispatcher a few passes.
    const other = await startReceiver();
    await createEndpoint(client, { url: other.url, events: ["*"] });
    await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/test`);
    await sleep(500);
    expect(other.received).toHaveLength(0);
  });

  it("removes every control character from the excerpt, line breaks, tabs and C1 controls included", async () => {
    const { client } = await createFixture(service);
    const receiver = await startReceiver(answer(200, "line one\r\nline two\ttabbed \u009b31m eight-bit escape"));
    const endpoint = await createEndpoint(client, { url: receiver.url, events: ["*"] });
    const test = await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/test`);
    expect(test.body.succeeded, test.text).toBe(true);
    expect(test.body.response_excerpt).toMatch(/^line one/);
    // eslint-disable-next-line no-control-regex -- asserts that no control character got through
    expect(test.body.response_excerpt).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it("reports a failing answer without counting it towards disabling the endpoint", async () => {
    const { client } = await createFixture(service);
    const receiver = await startReceiver(answer(500, "it broke"));
    const endpoint = await createEndpoint(client, { url: receiver.url, events: ["video.created"] });
    const test = await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/test`);
    expect(test.status, test.text).toBe(200);
    expect(test.body).toMatchObject({ succeeded: false, status_code: 500, response_excerpt: "it broke" });
    expect((await client.get(`/api/v1/webhooks/${endpoint.endpoint_id}`)).body).toMatchObject({ enabled: true, consecutive_failures: 0 });
    const [delivery] = await deliveriesOf(client, endpoint.endpoint_id);
    expect(delivery).toMatchObject({ status: "failed", attempt_count: 1, last_status_code: 500 });
    // A test is sent once, not retried.
    await sleep(500);
    expect(receiver.received).toHaveLength(1);
  });

  it("reports an unreachable receiver as an error, with no status code", async () => {
    const { client } = await createFixture(service);
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(client, { url: receiver.url, events: ["*"] });
    await receiver.close();
    const test = await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/test`);
    expect(test.status, test.text).toBe(200);
    expect(test.body).toMatchObject({ succeeded: false, status_code: null, error: "connection_failed", response_excerpt: null });
  });

  it("answers 400 test_mode_unsupported to an sk_test_ key and sends nothing", async () => {
    const fixture = await createFixture(service);
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(fixture.client, { url: receiver.url, events: ["*"] });
    const testKey = await fixture.newKey({ mode: "test" });
    expect(testKey.key.startsWith("sk_test_")).toBe(true);
    const refused = await testKey.client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/test`);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "test_mode_unsupported", type: "invalid_request_error", retryable: false });
    expect(refused.headers.get("x-test-mode")).toBe("true");
    expect(receiver.received).toHaveLength(0);
    expect(await deliveriesOf(fixture.client, endpoint.endpoint_id)).toEqual([]);
  });

  it("answers 404 for an endpoint that does not exist", async () => {
    const { client } = await createFixture(service);
    expectError(await client.post("/api/v1/webhooks/we_0000000000000000000000/test"), 404, "not_found");
  });
});

// ---- resend and recover ------------------------------------------------------------------------

describe("resending and recovering deliveries", () => {
  it("resends one delivery: the same delivery id arrives again", async () => {
    const { client } = await createFixture(service);
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(client, { url: receiver.url, events: ["video.created"] });
    const video = await client.post("/api/v1/videos", { video_name: "resend me" });
    expect(video.status, video.text).toBe(201);

    await waitFor("the first delivery", () => receiver.received.length >= 1);
    const [delivery] = await waitFor("the delivery to succeed", async () => {
      const rows = await deliveriesOf(client, endpoint.endpoint_id);
      return rows.length === 1 && rows[0]!.status === "succeeded" ? rows : undefined;
    });
    const deliveryId = delivery!.delivery_id as string;
    expect(receiver.received[0]!.headers["x-service-delivery"]).toBe(deliveryId);

    const resent = await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/deliveries/${deliveryId}/resend`);
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body).toMatchObject({ object: "webhook_delivery", delivery_id: deliveryId });

    await waitFor("the resent delivery", () => receiver.received.length >= 2);
    expect(receiver.received[1]!.headers["x-service-delivery"]).toBe(deliveryId);
    expect(JSON.parse(receiver.received[1]!.body).id).toBe(JSON.parse(receiver.received[0]!.body).id);
    const after = await waitFor("the resend to be recorded", async () => {
      const row = (await client.get(`/api/v1/webhook_deliveries/${deliveryId}`)).body;
      return row.status === "succeeded" && row.attempt_count === 2 ? row : undefined;
    });
    expect(after.attempts.map((attempt: { attempt_number: number; status_code: number }) => [attempt.attempt_number, attempt.status_code])).toEqual([[1, 200], [2, 200]]);

    expectError(await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/deliveries/dlv_0000000000000000000000/resend`), 404, "not_found");
    // A delivery of another endpoint is not this endpoint's to resend.
    const other = await createEndpoint(client, { url: receiver.url, events: ["folder.created"] });
    expectError(await client.post(`/api/v1/webhooks/${other.endpoint_id}/deliveries/${deliveryId}/resend`), 404, "not_found");
  });

  it("recovers the failed deliveries created since a time, and only those", async () => {
    const { client } = await createFixture(service);
    const receiver = await startReceiver(answer(503, "down"));
    const endpoint = await createEndpoint(client, { url: receiver.url, events: ["video.created"] });
    const since = new Date(Date.now() - 1000).toISOString();
    for (const name of ["first", "second"]) expect((await client.post("/api/v1/videos", { video_name: name })).status).toBe(201);

    // One retry in this file's schedule: two attempts each, then failed.
    const failed = await waitFor("both deliveries to fail", async () => {
      const rows = await deliveriesOf(client, endpoint.endpoint_id);
      return rows.length === 2 && rows.every((row) => row.status === "failed") ? rows : undefined;
    });
    for (const row of failed) {
      expect(row).toMatchObject({ attempt_count: 2, last_status_code: 503 });
      expect(row.attempts.map((attempt: { status_code: number }) => attempt.status_code)).toEqual([503, 503]);
    }
    expect(receiver.received).toHaveLength(4);
    const failedIds = failed.map((row) => row.delivery_id as string).sort();

    receiver.respond = answer(200);
    const none = await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/recover`, { since: new Date(Date.now() + 60_000).toISOString() });
    expect(none.status, none.text).toBe(200);
    expect(none.body).toMatchObject({ object: "webhook_recovery", endpoint_id: endpoint.endpoint_id, requeued: 0, delivery_ids: [] });
    expectError(await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/recover`, { since: "yesterday" }), 422, "validation_failed");
    expectError(await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/recover`, {}), 422, "validation_failed");

    const recovered = await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/recover`, { since });
    expect(recovered.status, recovered.text).toBe(200);
    expect(recovered.body).toMatchObject({ object: "webhook_recovery", endpoint_id: endpoint.endpoint_id, requeued: 2 });
    expect([...recovered.body.delivery_ids].sort()).toEqual(failedIds);

    const done = await waitFor("both recovered deliveries to succeed", async () => {
      const rows = await deliveriesOf(client, endpoint.endpoint_id);
      return rows.every((row) => row.status === "succeeded") ? rows : undefined;
    });
    for (const row of done) expect(row.attempts.map((attempt: { status_code: number }) => attempt.status_code)).toEqual([503, 503, 200]);
    expect(receiver.received).toHaveLength(6);
    const redelivered = receiver.received.slice(4).map((request) => request.headers["x-service-delivery"]).sort();
    expect(redelivered).toEqual(failedIds);

    // Nothing failed is left: recovering again requeues nothing.
    const again = await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/recover`, { since });
    expect(again.body.requeued).toBe(0);
    expect((await prisma().webhookEndpoint.findUniqueOrThrow({ where: { endpoint_id: endpoint.endpoint_id } })).consecutive_failures).toBe(0);
  });
});
