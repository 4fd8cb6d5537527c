// Webhook delivery end to end (contract 3, 6, 8; src/webhooks/dispatcher.ts, delivery.ts,
// deliver-job.ts, signature.ts, envelope.ts): a REST write reaches a subscribed endpoint, signed
// and enveloped; retries, disabling after 20 failures in a row, secret rotation, and
// at-least-once delivery when Redis loses the jobs or the worker dies mid-delivery.
//
// The API service runs no workers; the workers run in a second service on the same database (so
// tests can stop them, lose their jobs, and start them again) or in `src/worker.ts` child
// processes. The file has a PostgreSQL database and a Redis of its own: it obliterates the
// delivery queue and runs dispatchers, which must touch nothing of the other test files.
import path from "node:path";
import http from "node:http";
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { startService, type RunningService } from "../src/service.js";
import { Dispatcher } from "../src/webhooks/dispatcher.js";
import { answer, parseSignatureHeader, signedWith, startReceiver, verifySignature } from "./support/receiver.js";
import { sleep, waitFor } from "./support/wait.js";
import { createFixture, isolatedEnvironment, useService, type Client } from "./support/service.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const environment = isolatedEnvironment("delivery", { runWorkers: false, outboundAllow: ["127.0.0.1", "::1"], webhookRetrySeconds: [0.2, 0.2], webhookTimeoutMs: 1000, dispatchIntervalMs: 100 });
const dataDir = environment.dataDir;
const overrides = environment.overrides;
const api = useService(overrides);
const prisma = () => api.service.database.prisma;

// ---- the workers, in a service of their own ----------------------------------------------------

let workers: RunningService | undefined;

async function startWorkers(): Promise<void> {
  if (workers) return;
  workers = await startService({
    ...loadConfig({}),
    port: 0,
    printStartupKey: false,
    ...overrides,
    runWorkers: true,
  });
}

async function stopWorkers(): Promise<void> {
  const running = workers;
  workers = undefined;
  await running?.stop();
}

beforeAll(startWorkers);
afterAll(stopWorkers);

// ---- receivers, waiting, signatures ------------------------------------------------------------

/** Parses `t=<unix>,v1=<hex>[,v1=<hex>]`, failing the test when it is malformed. */
function parseSignature(header: string | string[] | undefined): { t: string; v1: string[] } {
  const parsed = parseSignatureHeader(header);
  expect(parsed, `X-Service-Signature ${String(header)}`).toBeDefined();
  return parsed!;
}

async function createEndpoint(client: Client, body: Record<string, unknown>) {
  const created = await client.post("/api/v1/webhooks", body);
  expect(created.status, created.text).toBe(201);
  return created.body as { endpoint_id: string; secret: string };
}

async function createVideo(client: Client, name: string): Promise<string> {
  const video = await client.post("/api/v1/videos", { video_name: name });
  expect(video.status, video.text).toBe(201);
  return video.body.video_id as string;
}

async function deliveriesOf(client: Client, endpointId: string) {
  const list = await client.get(`/api/v1/webhook_deliveries?endpoint_id=${endpointId}&limit=100`);
  expect(list.status, list.text).toBe(200);
  return list.body.data as Record<string, any>[];
}

const TERMINAL = new Set(["succeeded", "failed"]);

// ---- delivery ----------------------------------------------------------------------------------

describe("delivering events", () => {
  beforeAll(startWorkers);

  it("sends a REST write to a subscribed endpoint, signed, with the event envelope", async () => {
    const { client } = await createFixture(api);
    const videos = await startReceiver();
    const folders = await startReceiver();
    const videoEndpoint = await createEndpoint(client, { url: videos.url, events: ["video.*"] });
    const folderEndpoint = await createEndpoint(client, { url: folders.url, events: ["folder.*"] });

    const videoId = await createVideo(client, "delivered video");
    const [request] = await waitFor("the video.created delivery", () => (videos.received.length >= 1 ? videos.received : undefined));
    const received = request!;

    // Headers.
    expect(received.headers["x-service-event"]).toBe("video.created");
    expect(received.headers["content-type"]).toMatch(/^application\/json/);
    const deliveryId = received.headers["x-service-delivery"] as string;
    expect(deliveryId).toMatch(/^dlv_[0-9A-Za-z]{22}$/);
    const signature = received.headers["x-service-signature"] as string;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    // The signature, checked independently, and the receiver's timestamp tolerance.
    const t = Number(parseSignature(signature).t);
    expect(Math.abs(Date.now() / 1000 - t)).toBeLessThan(60);
    expect(signedWith(signature, received.body, videoEndpoint.secret)).toEqual([true]);
    expect(verifySignature(signature, received.body, videoEndpoint.secret)).toBe(true);
    expect(verifySignature(signature, received.body, videoEndpoint.secret, t + 300)).toBe(true);
    expect(verifySignature(signature, received.body, videoEndpoint.secret, t + 301)).toBe(false);
    expect(verifySignature(signature, received.body, videoEndpoint.secret, t - 301)).toBe(false);
    expect(verifySignature(signature, received.body.replace("delivered video", "tampered video"), videoEndpoint.secret)).toBe(false);
    expect(verifySignature(signature, received.body, folderEndpoint.secret)).toBe(false);

    // The envelope, with the record as the API shows it.
    const envelope = JSON.parse(received.body);
    expect(Object.keys(envelope).sort()).toEqual(["api_version", "created", "data", "id", "livemode", "object", "type"]);
    expect(envelope).toMatchObject({ object: "event", type: "video.created", livemode: true });
    expect(envelope.id).toMatch(/^evt_/);
    expect(Number.isInteger(envelope.created)).toBe(true);
    expect(Math.abs(Date.now() / 1000 - envelope.created)).toBeLessThan(60);
    const health = await client.get("/api/v1/health");
    expect(envelope.api_version).toBe(health.body.api_version);
    expect(envelope.data.object).toMatchObject({ video_id: videoId, video_name: "delivered video" });
    const record = (await client.get(`/api/v1/videos/${videoId}`)).body as Record<string, unknown>;
    for (const [field, value] of Object.entries(envelope.data.object as Record<string, unknown>)) {
      if (field in record && field !== "object") expect(value, field).toEqual(record[field]);
    }
    expect(envelope.data.object).not.toHaveProperty("workspace_id");
    const event = await client.get(`/api/v1/events/${envelope.id}`);
    expect(event.body).toMatchObject({ event_id: envelope.id, type: "video.created" });

    // The delivery log.
    const delivery = await waitFor("the delivery to be recorded as succeeded", async () => {
      const rows = await deliveriesOf(client, videoEndpoint.endpoint_id);
      return rows.length === 1 && rows[0]!.status === "succeeded" ? rows[0] : undefined;
    });
    expect(delivery).toMatchObject({ delivery_id: deliveryId, event_id: envelope.id, event_type: "video.created", attempt_count: 1, last_status_code: 200 });

    // The folder.* endpoint gets folder events and never the video's: its folder event comes
    // after the video event in the outbox, so once it is in, the video event would be too.
    const folder = await client.post("/api/v1/folders", { folder_name: "delivered folder" });
    expect(folder.status, folder.text).toBe(201);
    await waitFor("the folder.created delivery", () => folders.received.length >= 1);
    expect(folders.received.map((request) => request.headers["x-service-event"])).toEqual(["folder.created"]);
    expect(JSON.parse(folders.received[0]!.body).data.object.folder_id).toBe(folder.body.folder_id);
    expect((await deliveriesOf(client, folderEndpoint.endpoint_id)).map((row) => row.event_type)).toEqual(["folder.created"]);
    // ... and the video endpoint never gets the folder event.
    await waitFor("the folder event to be dispatched", async () => (await prisma().outboxEvent.findMany({ where: { type: "folder.created", dispatched_at: { not: null }, data: { path: ["object", "folder_id"], equals: folder.body.folder_id } } })).length === 1);
    expect(videos.received).toHaveLength(1);
  });

  it("retries a failing answer: 500, 500, 200 makes three attempts of one delivery and one success", async () => {
    const { client } = await createFixture(api);
    const statuses = [500, 500, 200];
    const receiver = await startReceiver((_request, response, index) => answer(statuses[index] ?? 200, `answer ${index + 1}`)(_request, response, index));
    const endpoint = await createEndpoint(client, { url: receiver.url, events: ["video.created"] });
    await createVideo(client, "retried");

    const delivery = await waitFor("the delivery to succeed", async () => {
      const rows = await deliveriesOf(client, endpoint.endpoint_id);
      return rows.length === 1 && rows[0]!.status === "succeeded" ? rows[0] : undefined;
    });
    expect(delivery).toMatchObject({ status: "succeeded", attempt_count: 3, last_status_code: 200, last_error: null });
    expect(delivery.attempts.map((attempt: Record<string, unknown>) => [attempt.attempt_number, attempt.status_code, attempt.succeeded])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 200, true],
    ]);
    expect(delivery.attempts.map((attempt: { response_excerpt: string }) => attempt.response_excerpt)).toEqual(["answer 1", "answer 2", "answer 3"]);
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((request) => request.headers["x-service-delivery"]))).toEqual(new Set([delivery.delivery_id]));
    // The same event each time, each attempt freshly signed.
    expect(new Set(receiver.received.map((request) => JSON.parse(request.body).id)).size).toBe(1);
    for (const request of receiver.received) expect(verifySignature(request.headers["x-service-signature"], request.body, endpoint.secret)).toBe(true);
    // A success ends the run of failures.
    expect((await client.get(`/api/v1/webhooks/${endpoint.endpoint_id}`)).body).toMatchObject({ enabled: true, consecutive_failures: 0 });
  });

  it("gives a delivery up after the last retry and records every attempt", async () => {
    const { client } = await createFixture(api);
    const receiver = await startReceiver(answer(502, "bad gateway"));
    const endpoint = await createEndpoint(client, { url: receiver.url, events: ["video.created"] });
    await createVideo(client, "never delivered");
    const delivery = await waitFor("the delivery to fail", async () => {
      const rows = await deliveriesOf(client, endpoint.endpoint_id);
      return rows.length === 1 && rows[0]!.status === "failed" ? rows[0] : undefined;
    });
    expect(delivery).toMatchObject({ attempt_count: 3, last_status_code: 502, last_error: "http_502", next_attempt_at: null });
    expect(delivery.attempts.map((attempt: { status_code: number }) => attempt.status_code)).toEqual([502, 502, 502]);
    expect(receiver.received).toHaveLength(3);
    expect((await client.get(`/api/v1/webhooks/${endpoint.endpoint_id}`)).body).toMatchObject({ enabled: true, consecutive_failures: 3 });
  });

  it("disables an endpoint after 20 failures in a row; nothing reaches it then; re-enabling resets the count", async () => {
    const { client } = await createFixture(api);
    const failing = await startReceiver(answer(500, "always failing"));
    const endpoint = await createEndpoint(client, { url: failing.url, events: ["video.created"] });
    const endpointState = async () => (await client.get(`/api/v1/webhooks/${endpoint.endpoint_id}`)).body;

    // Six events, three attempts each: 18 failures in a row, still enabled.
    for (let index = 0; index < 6; index++) await createVideo(client, `failing ${index}`);
    await waitFor("six failed deliveries", async () => {
      const rows = await deliveriesOf(client, endpoint.endpoint_id);
      return rows.length === 6 && rows.every((row) => row.status === "failed");
    });
    expect(await endpointState()).toMatchObject({ enabled: true, consecutive_failures: 18, disabled_reason: null });
    expect(failing.received).toHaveLength(18);

    // A seventh: its 2nd attempt is the 20th failure in a row and disables the endpoint; its 3rd
    // attempt finds the endpoint disabled and sends nothing.
    await createVideo(client, "failing 6");
    const disabled = await waitFor("the endpoint to be disabled", async () => {
      const state = await endpointState();
      return state.enabled === false ? state : undefined;
    });
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: "consecutive_failures", consecutive_failures: 20 });
    await waitFor("every delivery to end", async () => (await deliveriesOf(client, endpoint.endpoint_id)).every((row) => TERMINAL.has(row.status as string)));
    expect(failing.received).toHaveLength(20);

    // After disabling, nothing more reaches it: a healthy endpoint gets the next event, the
    // disabled one gets no delivery at all.
    const healthy = await startReceiver();
    await createEndpoint(client, { url: healthy.url, events: ["video.created"] });
    await createVideo(client, "after disabling");
    await waitFor("the healthy endpoint's delivery", () => healthy.received.length >= 1);
    const eventId = JSON.parse(healthy.received[0]!.body).id as string;
    expect(await prisma().webhookDelivery.count({ where: { endpoint_id: endpoint.endpoint_id, event_id: eventId } })).toBe(0);
    await sleep(300); // a few dispatcher passes
    expect(failing.received).toHaveLength(20);
    expect(await endpointState()).toMatchObject({ enabled: false, consecutive_failures: 20 });

    // Re-enabling starts the count over, and deliveries flow again.
    const reEnabled = await client.patch(`/api/v1/webhooks/${endpoint.endpoint_id}`, { enabled: true });
    expect(reEnabled.status, reEnabled.text).toBe(200);
    expect(reEnabled.body).toMatchObject({ enabled: true, consecutive_failures: 0, disabled_reason: null });
    failing.respond = answer(200);
    await createVideo(client, "after re-enabling");
    await waitFor("a delivery to the re-enabled endpoint", () => failing.received.length >= 21);
    expect(failing.received[20]!.headers["x-service-event"]).toBe("video.created");
  });

  it("signs with both secrets during a rotation's grace period, and with the new one only without grace", async () => {
    const { client } = await createFixture(api);
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(client, { url: receiver.url, events: ["video.created"] });
    const oldSecret = endpoint.secret;

    const rotated = await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/rotate_secret`, { grace_period_seconds: 3600 });
    expect(rotated.status, rotated.text).toBe(200);
    const newSecret = rotated.body.secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    const expiresIn = Date.parse(rotated.body.previous_secret_expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(3500_000);
    expect(expiresIn).toBeLessThanOrEqual(3600_000);
    expect((await client.get(`/api/v1/webhooks/${endpoint.endpoint_id}`)).body).not.toHaveProperty("secret");

    await createVideo(client, "rotated");
    await waitFor("the delivery", () => receiver.received.length >= 1);
    const during = receiver.received[0]!;
    const { v1 } = parseSignature(during.headers["x-service-signature"]);
    expect(v1).toHaveLength(2);
    const byNew = signedWith(during.headers["x-service-signature"], during.body, newSecret);
    const byOld = signedWith(during.headers["x-service-signature"], during.body, oldSecret);
    expect(byNew.filter(Boolean)).toHaveLength(1);
    expect(byOld.filter(Boolean)).toHaveLength(1);
    expect(byNew.findIndex(Boolean)).not.toBe(byOld.findIndex(Boolean));
    expect(verifySignature(during.headers["x-service-signature"], during.body, newSecret)).toBe(true);
    expect(verifySignature(during.headers["x-service-signature"], during.body, oldSecret)).toBe(true);

    // Without grace the old secret stops at once.
    const immediate = await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/rotate_secret`, { grace_period_seconds: 0 });
    expect(immediate.status, immediate.text).toBe(200);
    expect(immediate.body.previous_secret_expires_at).toBeNull();
    const latest = immediate.body.secret as string;
    const test = await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/test`);
    expect(test.body.succeeded, test.text).toBe(true);
    const after = receiver.received.at(-1)!;
    expect(after.headers["x-service-event"]).toBe("webhook.test");
    expect(signedWith(after.headers["x-service-signature"], after.body, latest)).toEqual([true]);
    expect(verifySignature(after.headers["x-service-signature"], after.body, newSecret)).toBe(false);
    expect(verifySignature(after.headers["x-service-signature"], after.body, oldSecret)).toBe(false);

    for (const grace of [-1, 604_801, "long"]) {
      const refused = await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/rotate_secret`, { grace_period_seconds: grace });
      expect(refused.status, refused.text).toBe(422);
    }
  });
});

// ---- at-least-once -----------------------------------------------------------------------------

describe("at-least-once delivery", () => {
  const children: ChildProcess[] = [];

  afterAll(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });

  /** `src/worker.ts` in a process of its own, on this file's database and Redis. */
  function startWorkerProcess(): { child: ChildProcess; output: () => string } {
    let output = "";
    const child = spawn(process.execPath, ["--import", "tsx", "src/worker.ts"], {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_URL: overrides.databaseUrl,
        REDIS_URL: overrides.redisUrl,
        CUTROOM_OUTBOUND_ALLOW: "127.0.0.1",
        CUTROOM_WEBHOOK_TIMEOUT_MS: "1500",
        CUTROOM_DISPATCH_INTERVAL_MS: "100",
        CUTROOM_WEBHOOK_RETRY_SECONDS: "0.2,0.2,0.2",
        CUTROOM_DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    children.push(child);
    return { child, output: () => output };
  }

  function exited(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => child.once("exit", () => resolve()));
  }

  it("rebuilds lost jobs from the outbox and the deliveries table after Redis lost them", async () => {
    await stopWorkers();
    const { client, workspaceId } = await createFixture(api);
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(client, { url: receiver.url, events: ["video.created"] });

    // Event A: committed and fanned out (a delivery row and its job), then the job is lost.
    await createVideo(client, "fanned out, job lost");
    const queue = api.service.jobs.queue("webhooks.deliver");
    const dispatcher = new Dispatcher({ prisma: prisma(), intervalMs: 100, enqueue: (job, payload, options) => api.service.jobs.enqueue(job, payload, options) });
    await dispatcher.tick();
    const [fannedOut] = await deliveriesOf(client, endpoint.endpoint_id);
    expect(fannedOut).toMatchObject({ status: "pending", attempt_count: 0 });
    expect(await queue.getJob(`${fannedOut!.delivery_id}-1`)).toBeDefined();
    await queue.obliterate({ force: true });
    expect(await queue.getJob(`${fannedOut!.delivery_id}-1`)).toBeUndefined();

    // Event B: committed, never dispatched.
    await createVideo(client, "committed only");
    expect(await prisma().outboxEvent.count({ where: { workspace_id: workspaceId, dispatched_at: null } })).toBe(1);
    await sleep(300);
    expect(receiver.received).toHaveLength(0);

    // Workers come back on the same database: both arrive.
    await startWorkers();
    await waitFor("both deliveries", () => receiver.received.length >= 2);
    const rows = await waitFor("both deliveries to succeed", async () => {
      const list = await deliveriesOf(client, endpoint.endpoint_id);
      return list.length === 2 && list.every((row) => row.status === "succeeded") ? list : undefined;
    });
    const arrived = receiver.received.map((request) => request.headers["x-service-delivery"]);
    expect(arrived).toContain(fannedOut!.delivery_id);
    expect(new Set(arrived)).toEqual(new Set(rows.map((row) => row.delivery_id)));
    expect(new Set(receiver.received.map((request) => JSON.parse(request.body).data.object.video_name))).toEqual(new Set(["fanned out, job lost", "committed only"]));
    for (const row of rows) expect(row.attempt_count).toBe(1);
  });

  it("recovers a delivery that failed because its endpoint was disabled, once the endpoint is re-enabled", async () => {
    await stopWorkers();
    const { client } = await createFixture(api);
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(client, { url: receiver.url, events: ["video.created"] });
    const since = new Date(Date.now() - 1000).toISOString();
    await createVideo(client, "sent to a disabled endpoint");
    // Fanned out (delivery and job) while the endpoint was enabled; disabled before the attempt.
    await new Dispatcher({ prisma: prisma(), intervalMs: 100, enqueue: (job, payload, options) => api.service.jobs.enqueue(job, payload, options) }).tick();
    expect((await client.patch(`/api/v1/webhooks/${endpoint.endpoint_id}`, { enabled: false })).status).toBe(200);
    await startWorkers();
    const [failed] = await waitFor("the delivery to fail as endpoint_disabled", async () => {
      const rows = await deliveriesOf(client, endpoint.endpoint_id);
      return rows.length === 1 && rows[0]!.status === "failed" ? rows : undefined;
    });
    expect(failed).toMatchObject({ last_error: "endpoint_disabled", attempt_count: 0, attempts: [] });
    expect(receiver.received).toHaveLength(0);

    expect((await client.patch(`/api/v1/webhooks/${endpoint.endpoint_id}`, { enabled: true })).body.enabled).toBe(true);
    const recovered = await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/recover`, { since });
    expect(recovered.body).toMatchObject({ requeued: 1, delivery_ids: [failed!.delivery_id] });
    // Never arrives (the bug above): the delivery stays pending with attempt_count 0.
    await waitFor("the recovered delivery", () => receiver.received.length >= 1, 3_000);
    expect(receiver.received[0]!.headers["x-service-delivery"]).toBe(failed!.delivery_id);
  });

  /** A disabled endpoint, and `count` videos created (and fanned out) while it was off. */
  async function missedWhileDisabled(count: number) {
    await startWorkers();
    const { client, workspaceId } = await createFixture(api);
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(client, { url: receiver.url, events: ["video.created"] });
    const since = new Date(Date.now() - 1000).toISOString();
    expect((await client.patch(`/api/v1/webhooks/${endpoint.endpoint_id}`, { enabled: false })).status).toBe(200);
    for (let index = 0; index < count; index++) await createVideo(client, `while disabled ${index}`);
    await waitFor("the events to be fanned out", async () => (await prisma().outboxEvent.count({ where: { workspace_id: workspaceId, type: "video.created", dispatched_at: null } })) === 0);
    expect(await prisma().webhookDelivery.count({ where: { endpoint_id: endpoint.endpoint_id } })).toBe(0);
    const eventIds = (await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type: "video.created" }, orderBy: { seq: "asc" } })).map((event) => event.event_id);
    expect(eventIds).toHaveLength(count);
    return { client, receiver, endpoint, since, eventIds };
  }

  it("recover delivers every subscribed event that happened while the endpoint was disabled, each once", async () => {
    const { client, receiver, endpoint, since, eventIds } = await missedWhileDisabled(3);
    expect((await client.patch(`/api/v1/webhooks/${endpoint.endpoint_id}`, { enabled: true })).body.enabled).toBe(true);
    const recovered = await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/recover`, { since });
    expect(recovered.status, recovered.text).toBe(200);
    expect(recovered.body.requeued).toBe(3);
    await waitFor("the three missed events", () => receiver.received.length >= 3);
    // Recovering again makes nothing new: each event has its delivery, and it succeeded.
    const again = await client.post(`/api/v1/webhooks/${endpoint.endpoint_id}/recover`, { since });
    expect(again.body).toMatchObject({ requeued: 0, delivery_ids: [] });
    await sleep(500);
    expect(receiver.received.map((request) => JSON.parse(request.body).id as string).sort()).toEqual([...eventIds].sort());
  });

  it("re-enabling with since delivers what the endpoint missed, each once", async () => {
    const { client, receiver, endpoint, since, eventIds } = await missedWhileDisabled(2);
    const reEnabled = await client.patch(`/api/v1/webhooks/${endpoint.endpoint_id}`, { enabled: true, since });
    expect(reEnabled.status, reEnabled.text).toBe(200);
    await waitFor("the two missed events", () => receiver.received.length >= 2);
    await sleep(500);
    expect(receiver.received.map((request) => JSON.parse(request.body).id as string).sort()).toEqual([...eventIds].sort());
    const refused = await client.patch(`/api/v1/webhooks/${endpoint.endpoint_id}`, { since });
    expect(refused.body.error).toMatchObject({ code: "validation_failed", param: "since" });
  });

  it("still delivers, with the same delivery id, after the worker is killed mid-delivery and restarted", async () => {
    await stopWorkers();
    const { client } = await createFixture(api);
    let first: ReturnType<typeof startWorkerProcess> | undefined;
    let held: http.ServerResponse | undefined;
    const receiver = await startReceiver((_request, response, index) => {
      if (index > 0) return answer(200)(_request, response, index);
      // The first attempt never gets an answer: its worker is killed while it waits (well
      // within the worker's 1.5 s timeout, so the attempt can never end by itself).
      held = response;
      first?.child.kill("SIGKILL");
    });
    const endpoint = await createEndpoint(client, { url: receiver.url, events: ["video.created"] });

    first = startWorkerProcess();
    await createVideo(client, "survives a dead worker");
    await waitFor(() => `the first attempt to arrive (worker output: ${first.output()})`, () => receiver.received.length >= 1, 30_000);
    await exited(first.child);
    expect(first.child.signalCode).toBe("SIGKILL");
    expect(held).toBeDefined();
    const deliveryId = receiver.received[0]!.headers["x-service-delivery"] as string;
    // The dead worker still holds the delivery (until its lease runs out) and recorded nothing.
    const stranded = await prisma().webhookDelivery.findUniqueOrThrow({ where: { delivery_id: deliveryId }, include: { attempts: true } });
    expect(stranded).toMatchObject({ status: "delivering", attempt_count: 1 });
    expect(stranded.attempts).toHaveLength(0);

    const second = startWorkerProcess();
    try {
      // The lease is the timeout (1.5 s) plus 5 s.
      await waitFor(() => `the delivery to arrive again (worker output: ${second.output()})`, () => receiver.received.length >= 2, 30_000);
      expect(receiver.received[1]!.headers["x-service-delivery"]).toBe(deliveryId);
      expect(JSON.parse(receiver.received[1]!.body).id).toBe(JSON.parse(receiver.received[0]!.body).id);
      const delivered = await waitFor("the delivery to succeed", async () => {
        const row = (await client.get(`/api/v1/webhook_deliveries/${deliveryId}`)).body;
        return row.status === "succeeded" ? row : undefined;
      });
      expect(delivered.attempt_count).toBe(2);
      expect(delivered.attempts.map((attempt: Record<string, unknown>) => [attempt.attempt_number, attempt.status_code, attempt.succeeded])).toEqual([[2, 200, true]]);
      expect(receiver.received).toHaveLength(2);
      expect((await deliveriesOf(client, endpoint.endpoint_id)).map((row) => row.delivery_id)).toEqual([deliveryId]);
    } finally {
      second.child.kill("SIGTERM");
      await exited(second.child);
    }
  });
});
