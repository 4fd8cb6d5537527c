// Real answers validate against the checked-in OpenAPI document (test/support/openapi-check.ts):
// status, documented headers, media type and body, with ajv in strict mode, for every route kind
// (records of every resource, lists, exports, bulk, batch, actions GET and POST, files, webhooks,
// api_keys, events) and every error status the service answers. Every request of this file goes
// through `call`, so none escapes the check; the last test asserts what the corpus covered.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { Client, createFixture, useService, type ApiResponse, type RequestOptions } from "./support/service.js";
import { answerChecker, openApiDocument, type CheckedAnswer, type Json } from "./support/openapi-check.js";
import { createPayload, platformSeeds, ROUND_TRIPS, seeds } from "./support/records.js";
import { startReceiver } from "./support/receiver.js";

const service = useService({ outboundAllow: ["127.0.0.1"] });
const prisma = () => service.service.database.prisma;
const doc = openApiDocument();
const check = answerChecker(doc);
const covered: CheckedAnswer[] = [];

/** One request of the corpus: sent, then checked against the document. */
async function call(client: Client, method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
  const response = await client.request(method, `/api/v1${path}`, options);
  const { problems, answer } = check(method, path, response);
  covered.push(answer);
  expect(problems, `${method} ${path}: ${response.text.slice(0, 300)}`).toEqual([]);
  return response;
}

const withBody = (body: unknown, options: RequestOptions = {}): RequestOptions => ({ ...options, body });

/** A change for the resources whose update test/support/records.ts leaves out. */
const MORE_UPDATES: Record<string, Json> = { playground_generations: { title: "Fox" } };

describe("every resource's routes answer as documented", () => {
  it("create, get (whole and with fields), update (PATCH and POST alias), list, list with fields, bulk, delete", async () => {
    const { client, workspaceId } = await createFixture(service);
    const resources = [...new Set(Object.keys(doc.paths).map((path) => /^\/([a-z_]+)$/.exec(path)?.[1]).filter((name): name is string => !!name && !!doc.paths[`/${name}`].get))];
    const seeded = { ...seeds(prisma), ...platformSeeds(prisma) };
    for (const name of resources) {
      const member = Object.keys(doc.paths).find((path) => new RegExp(`^/${name}/\\{[^}]+\\}$`).test(path));
      let id: string | undefined;
      if (doc.paths[`/${name}`].post && ROUND_TRIPS[name]) {
        const created = await call(client, "POST", `/${name}`, withBody(await createPayload(prisma(), name, workspaceId)));
        expect(created.status, `${name}: ${created.text}`).toBe(201);
        id = created.body[/\{([^}]+)\}/.exec(member!)![1]!];
      } else if (seeded[name]) {
        id = await seeded[name](workspaceId);
      }
      await call(client, "GET", `/${name}`);
      // Bulk: a deletion of an unknown id fails alone (207).
      if (doc.paths[`/${name}/bulk`]) expect((await call(client, "POST", `/${name}/bulk`, withBody({ delete: ["missing_id"] }))).status, name).toBe(207);
      if (!id || !member) continue;
      const memberPath = member.replace(/\{[^}]+\}/, id);
      expect((await call(client, "GET", memberPath)).status, name).toBe(200);
      const idField = /\{([^}]+)\}/.exec(member)![1]!;
      expect((await call(client, "GET", `${memberPath}?fields=${idField}`)).status, name).toBe(200);
      expect((await call(client, "GET", `/${name}?fields=${idField}&limit=5`)).status, name).toBe(200);
      const update = ROUND_TRIPS[name]?.update ?? MORE_UPDATES[name];
      if (doc.paths[member].patch && update) {
        expect((await call(client, "PATCH", memberPath, withBody(update))).status, name).toBe(200);
        expect((await call(client, "PATCH", `${memberPath}?fields=${idField}`, withBody(update))).status, name).toBe(200);
        if (doc.paths[member].post) expect((await call(client, "POST", memberPath, withBody(update))).status, name).toBe(200);
      }
      if (doc.paths[member].delete) expect((await call(client, "DELETE", memberPath)).status, name).toBe(200);
    }
  }, 120_000);

  it("a list leaves heavy fields out; exports answer ndjson and csv; a filter takes a plain value", async () => {
    const { client, workspaceId } = await createFixture(service);
    await seeds(prisma).scripts!(workspaceId);
    const scripts = await call(client, "GET", "/scripts");
    expect(scripts.body.data[0]).not.toHaveProperty("paragraphs");
    await call(client, "GET", "/scripts?expand=paragraphs");
    await call(client, "POST", "/videos", withBody({ video_name: "Wide", video_format: "landscape" }));
    const filtered = await call(client, "GET", "/videos?video_format=landscape");
    expect(filtered.body.data.map((video: Json) => video.video_name)).toEqual(["Wide"]);
    await call(client, "GET", "/videos?video_format[in]=landscape,portrait&published[exists]=false");
    expect((await call(client, "GET", "/videos?format=ndjson")).headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    expect((await call(client, "GET", "/videos?format=csv")).headers.get("content-type")).toMatch(/^text\/csv/);
    expect((await call(client, "GET", "/videos?fields=video_name", { headers: { accept: "application/x-ndjson" } })).status).toBe(200);
    expect((await call(client, "GET", "/scripts?format=ndjson")).text).not.toContain("paragraphs");
  });
});

describe("platform routes answer as documented", () => {
  it("health, discovery, this document, batch, bulk (200 and 207), usage, logs, events", async () => {
    const { client } = await createFixture(service);
    await call(client, "GET", "/health", { key: null });
    await call(client, "GET", "/");
    await call(client, "GET", "/openapi.json");
    const batch = await call(client, "POST", "/batch", withBody({ requests: [{ id: "a", method: "GET", path: "/v1/videos" }, { id: "b", method: "POST", path: "/v1/folders", body: { folder_name: "F" } }] }));
    expect(batch.body.data.map((member: Json) => member.status)).toEqual([200, 201]);
    // Each member is its route's own answer, checked as one.
    for (const [index, member] of (batch.body.data as Json[]).entries()) {
      const sent = [{ method: "GET", path: "/videos" }, { method: "POST", path: "/folders" }][index]!;
      const headers = new Headers({ "content-type": "application/json", ...member.headers });
      expect(check(sent.method, sent.path, { status: member.status, headers, body: member.body, text: JSON.stringify(member.body) }).problems).toEqual([]);
    }
    expect((await call(client, "POST", "/videos/bulk", withBody({ create: [{ video_name: "A" }, { video_name: "B" }] }))).status).toBe(200);
    expect((await call(client, "POST", "/folders/bulk", withBody({ create: [{ folder_name: "A" }], delete: ["fld_missing"] }))).status).toBe(207);
    await call(client, "GET", "/usage");
    await call(client, "GET", "/logs?limit=3");
    const events = await call(client, "GET", "/events");
    expect(events.body.data.length).toBeGreaterThan(0);
    await call(client, "GET", `/events/${events.body.data[0].event_id}`);
    await call(client, "GET", "/events/types");
  });

  it("api keys: create, rotate, update, delete", async () => {
    const { client } = await createFixture(service);
    const created = await call(client, "POST", "/api_keys", withBody({ name: "ci", scopes: ["videos:read"] }));
    expect(created.status, created.text).toBe(201);
    const id = created.body.key_id;
    expect((await call(client, "POST", `/api_keys/${id}/rotate`, withBody({ grace_period_seconds: 0 }))).status).toBe(200);
    expect((await call(client, "PATCH", `/api_keys/${id}`, withBody({ name: "ci-2" }))).status).toBe(200);
    expect((await call(client, "DELETE", `/api_keys/${id}`)).status).toBe(200);
  });

  it("webhooks: create, update, test with no body, rotate without a body, recover, resend, delete", async () => {
    const { client } = await createFixture(service);
    const receiver = await startReceiver();
    const created = await call(client, "POST", "/webhooks", withBody({ url: receiver.url, events: ["video.*", "render.completed"], description: "main" }));
    expect(created.status, created.text).toBe(201);
    const id = created.body.endpoint_id;
    expect((await call(client, "PATCH", `/webhooks/${id}`, withBody({ enabled: false }))).status).toBe(200);
    expect((await call(client, "PATCH", `/webhooks/${id}`, withBody({ enabled: true }))).status).toBe(200);
    const tested = await call(client, "POST", `/webhooks/${id}/test`);
    expect(tested.body).toMatchObject({ object: "webhook_test", succeeded: true, status_code: 200 });
    expect((await call(client, "POST", `/webhooks/${id}/rotate_secret`)).status).toBe(200);
    expect((await call(client, "POST", `/webhooks/${id}/recover`, withBody({ since: new Date().toISOString() }))).status).toBe(200);
    expect((await call(client, "POST", `/webhooks/${id}/deliveries/whd_missing/resend`)).status).toBe(404);
    expect((await call(client, "POST", "/webhooks", withBody({ url: receiver.url, events: ["video.made"] }))).status).toBe(422);
    expect((await call(client, "DELETE", `/webhooks/${id}`)).status).toBe(200);
  });
});

describe("actions answer as documented", () => {
  it("a GET and a POST action, a binary answer and its JSON link, a 402, a 422", async () => {
    const { client } = await createFixture(service);
    await call(client, "GET", "/actions/account.credits");
    const png = (await sharp({ create: { width: 8, height: 6, channels: 3, background: "#336699" } }).png().toBuffer()).toString("base64");
    const bytes = await call(client, "POST", "/actions/tools.image_crop", withBody({ image_base64: png, metadata: { aspect: "1:1" } }));
    expect(bytes.headers.get("content-type")).toBe("image/png");
    const link = await call(client, "POST", "/actions/tools.image_crop", withBody({ image_base64: png }, { headers: { accept: "application/json" } }));
    expect(link.status, link.text).toBe(200);
    const video = await call(client, "POST", "/videos", withBody({ video_name: "x", composition: { duration: 1, layers: [{ type: "text", text: "a" }] } }));
    expect((await call(client, "POST", "/actions/renders.create", withBody({ video_id: video.body.video_id }))).status).toBe(402);
    expect((await call(client, "POST", "/actions/renders.create", withBody({}))).status).toBe(422);
  });

  it("every action answers an empty call from a test key as documented", async () => {
    const live = await createFixture(service);
    const { client } = await live.newKey({ mode: "test" });
    const actions = Object.keys(doc.paths).filter((path) => path.startsWith("/actions/"));
    expect(actions.length).toBeGreaterThan(100);
    for (const path of actions) {
      const method = doc.paths[path].get ? "GET" : "POST";
      await call(client, method, path, method === "POST" ? withBody({}) : {});
    }
  }, 120_000);
});

describe("every error status answers as documented", () => {
  it("400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 429", async () => {
    const fixture = await createFixture(service);
    const { client } = fixture;
    expect((await call(client, "GET", "/videos?colour=red")).status).toBe(400);
    expect((await call(client, "POST", "/videos", { rawBody: "{nope", headers: { "content-type": "application/json" } })).status).toBe(400);
    expect((await call(client, "GET", "/videos", { key: null })).status).toBe(401);
    expect((await call(client, "POST", "/actions/renders.create", withBody({}, { key: null }))).status).toBe(401);
    const reader = await fixture.newKey({ scopes: ["videos:read"] });
    expect((await call(reader.client, "POST", "/videos", withBody({ video_name: "no" }))).status).toBe(403);
    expect((await call(reader.client, "GET", "/actions/account.credits")).status).toBe(403);
    expect((await call(client, "GET", "/videos/vid_missing")).status).toBe(404);
    expect((await call(client, "GET", "/nothing_here")).status).toBe(404);
    expect((await call(client, "POST", "/actions/nothing.here", withBody({}))).status).toBe(404);
    expect((await call(client, "PUT", "/videos")).status).toBe(405);
    expect((await call(client, "GET", "/actions/renders.create")).status).toBe(405);
    expect((await call(client, "GET", "/videos", { headers: { accept: "image/png" } })).status).toBe(406);
    const idempotent = { headers: { "idempotency-key": `corpus-${Date.now()}` } };
    expect((await call(client, "POST", "/folders", withBody({ folder_name: "A" }, idempotent))).status).toBe(201);
    const replayed = await call(client, "POST", "/folders", withBody({ folder_name: "A" }, idempotent));
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect((await call(client, "POST", "/folders", withBody({ folder_name: "B" }, idempotent))).status).toBe(409);
    expect((await call(client, "POST", "/videos/bulk", withBody({ create: Array.from({ length: 101 }, () => ({ video_name: "x" })) }))).status).toBe(413);
    expect((await call(client, "POST", "/videos", { rawBody: "video_name=x", headers: { "content-type": "application/x-www-form-urlencoded" } })).status).toBe(415);
    expect((await call(client, "POST", "/videos", withBody({ video_nam: "typo" }))).status).toBe(422);
    expect((await call(client, "GET", "/videos?limit=0")).status).toBe(422);

    const limited = await fixture.newKey();
    await prisma().apiKey.update({ where: { key_id: limited.keyId }, data: { rate_limits: { minute: 1 } } });
    expect((await call(limited.client, "GET", "/videos")).status).toBe(200);
    const refused = await call(limited.client, "GET", "/videos");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await call(limited.client, "POST", "/actions/renders.create", withBody({})))).toMatchObject({ status: 429 });
  });
});

describe("what the corpus covered", () => {
  it("every route kind, every action and every error status above", () => {
    const statuses = new Set(covered.map((answer) => answer.status));
    for (const status of [200, 201, 207, 400, 401, 402, 403, 404, 405, 406, 409, 413, 415, 422, 429]) expect(statuses.has(status), `status ${status}`).toBe(true);
    const operations = new Set(covered.filter((answer) => answer.path).map((answer) => `${answer.method} ${answer.path}`));
    const documented = Object.entries<Json>(doc.paths).flatMap(([path, item]) => Object.keys(item).filter((method) => ["get", "post", "patch", "delete"].includes(method)).map((method) => `${method} ${path}`));
    expect(documented.filter((operation) => !operations.has(operation))).toEqual([]);
  });
});
