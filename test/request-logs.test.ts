// The request log (contract 4.7; src/guards/request-log-writer.ts, src/logs/resource.ts): every
// answered request is recorded, successes and failures alike, and read back through
// GET /api/v1/logs (guarded by usage:read) with filters and cursor paging, per workspace only.
// The writer buffers entries; tests flush it before reading.
import http from "node:http";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createFixture, useService, type ApiResponse, type Client, type Fixture } from "./support/service.js";

const service = useService();

type Row = Record<string, any>;

const prisma = () => service.service.database.prisma;
const flush = () => service.service.guards.requestLog.flush();
const USER_AGENT = "cutroom-request-log-test/1.0";
const ua = { headers: { "user-agent": USER_AGENT } };
const requestIdOf = (response: ApiResponse) => response.headers.get("x-request-id")!;

/** A request without a key, from a loopback address of its own (its own anonymous window). */
function anonymousRequest(path: string): Promise<{ status: number; requestId: string; address: string }> {
  const octet = () => 1 + Math.floor(Math.random() * 254);
  const address = `127.${octet()}.${octet()}.${octet()}`;
  const url = new URL(path, service.url);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path: url.pathname, headers: { "user-agent": USER_AGENT }, localAddress: address }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode!, requestId: String(response.headers["x-request-id"]), address }));
    });
    request.on("error", reject);
    request.end();
  });
}

async function listAll(client: Client, query: string): Promise<Row[]> {
  const response = await client.get(`/api/v1/logs?${query}`);
  expect(response.status, response.text).toBe(200);
  expect(response.body.object).toBe("list");
  return response.body.data as Row[];
}

/** A fixture that has sent one request of each outcome; returns their request ids. */
async function seedRequests(fixture: Fixture) {
  const { client } = fixture;
  const created = await client.post("/api/v1/videos", { video_name: "logged" }, ua);
  expect(created.status).toBe(201);
  const ok = await client.get(`/api/v1/videos/${created.body.video_id}`, ua);
  const missing = await client.get("/api/v1/videos/vid_doesnotexist000000000", ua);
  const invalid = await client.post("/api/v1/videos", { video_name: "x", not_a_field: true }, ua);
  const wrongVerb = await client.request("PUT", "/api/v1/videos", ua);
  expect([ok.status, missing.status, invalid.status, wrongVerb.status]).toEqual([200, 404, 422, 405]);
  return {
    videoId: created.body.video_id as string,
    created: requestIdOf(created),
    ok: requestIdOf(ok),
    missing: requestIdOf(missing),
    invalid: requestIdOf(invalid),
    wrongVerb: requestIdOf(wrongVerb),
  };
}

describe("recording", () => {
  it("records successes and failures with their request id, key, route, status, error code, ip and user agent", async () => {
    const fixture = await createFixture(service);
    const ids = await seedRequests(fixture);
    await flush();

    const rows = await prisma().requestLog.findMany({ where: { logged_request_id: { in: Object.values(ids).filter((id) => id.startsWith("req_")) } } });
    const byId = new Map(rows.map((row) => [row.logged_request_id, row]));
    const common = { workspace_id: fixture.workspaceId, key_id: fixture.keyId, user_agent: USER_AGENT, idempotent_replay: false, request_livemode: true };
    expect(byId.get(ids.created)).toMatchObject({ ...common, method: "POST", route: "/api/v1/videos", path: "/api/v1/videos", status: 201, error_code: null });
    expect(byId.get(ids.ok)).toMatchObject({ ...common, method: "GET", route: "/api/v1/videos/{video_id}", path: `/api/v1/videos/${ids.videoId}`, status: 200, error_code: null });
    expect(byId.get(ids.missing)).toMatchObject({ ...common, method: "GET", route: "/api/v1/videos/{video_id}", path: "/api/v1/videos/vid_doesnotexist000000000", status: 404, error_code: "not_found" });
    expect(byId.get(ids.invalid)).toMatchObject({ ...common, method: "POST", route: "/api/v1/videos", status: 422, error_code: "validation_failed" });
    expect(byId.get(ids.wrongVerb)).toMatchObject({ ...common, method: "PUT", path: "/api/v1/videos", status: 405, error_code: "method_not_allowed" });
    for (const row of rows) {
      expect(row.duration_ms).toBeGreaterThanOrEqual(0);
      expect(row.ip).toMatch(/127\.0\.0\.1$/);
      expect(row.created_at).toBeInstanceOf(Date);
    }
    expect(rows).toHaveLength(5);
  });

  it("records a 401 without a key, with no workspace, so no workspace lists it", async () => {
    const fixture = await createFixture(service, { scopes: ["usage:read"] });
    const anonymous = await anonymousRequest("/api/v1/videos");
    expect(anonymous.status).toBe(401);
    await flush();
    const row = await prisma().requestLog.findUnique({ where: { logged_request_id: anonymous.requestId } });
    expect(row).toMatchObject({ workspace_id: null, key_id: null, status: 401, error_code: "missing_credentials", method: "GET", path: "/api/v1/videos", ip: anonymous.address, user_agent: USER_AGENT });

    // Not readable by any workspace (the service answers as for another workspace's record).
    const probe = await fixture.client.get(`/api/v1/logs/${anonymous.requestId}`);
    expect([403, 404], probe.text).toContain(probe.status);
    expect(["workspace_mismatch", "not_found"]).toContain(probe.body.error.code);
    expect(await listAll(fixture.client, "status=401")).toEqual([]);
  });

  it("records a test key's requests with livemode false", async () => {
    const fixture = await createFixture(service, { mode: "test" });
    const response = await fixture.client.get("/api/v1/videos");
    await flush();
    expect(await prisma().requestLog.findUnique({ where: { logged_request_id: requestIdOf(response) } })).toMatchObject({ request_livemode: false, key_id: fixture.keyId, status: 200 });
  });

  it("marks an idempotent replay", async () => {
    const { client } = await createFixture(service);
    const headers = { "idempotency-key": randomUUID() };
    const first = await client.post("/api/v1/folders", { folder_name: "once" }, { headers });
    const replay = await client.post("/api/v1/folders", { folder_name: "once" }, { headers });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const replayId = replay.headers.get("x-replay-request-id")!;
    expect(replayId).toMatch(/^req_/);
    await flush();
    expect(await prisma().requestLog.findUnique({ where: { logged_request_id: requestIdOf(first) } })).toMatchObject({ idempotent_replay: false, status: 201 });
    expect(await prisma().requestLog.findUnique({ where: { logged_request_id: replayId } })).toMatchObject({ idempotent_replay: true, status: 201, method: "POST" });
  });
});

describe("GET /api/v1/logs", () => {
  it("lists the workspace's requests and filters them by status, method, path, error code and time", async () => {
    const fixture = await createFixture(service);
    const ids = await seedRequests(fixture);
    await flush();

    const all = await listAll(fixture.client, "limit=100");
    expect(all.map((row) => row.logged_request_id)).toEqual(expect.arrayContaining(Object.values(ids).filter((id) => id.startsWith("req_"))));
    const sample = all.find((row) => row.logged_request_id === ids.missing)!;
    expect(sample).toMatchObject({ object: "request_log", key_id: fixture.keyId, method: "GET", route: "/api/v1/videos/{video_id}", status: 404, error_code: "not_found", user_agent: USER_AGENT, idempotent_replay: false });
    expect(typeof sample.duration_ms).toBe("number");
    expect(sample.workspace_id).toBeUndefined();

    expect((await listAll(fixture.client, "status=404")).map((row) => row.logged_request_id)).toEqual([ids.missing]);
    expect((await listAll(fixture.client, "method=PUT")).map((row) => row.logged_request_id)).toEqual([ids.wrongVerb]);
    expect((await listAll(fixture.client, "error_code=validation_failed")).map((row) => row.logged_request_id)).toEqual([ids.invalid]);
    expect(new Set((await listAll(fixture.client, "path[starts_with]=/api/v1/videos/")).map((row) => row.logged_request_id))).toEqual(new Set([ids.ok, ids.missing]));
    expect(new Set((await listAll(fixture.client, "status[gte]=400&method=GET")).map((row) => row.logged_request_id))).toEqual(new Set([ids.missing]));

    // created_after: only what came later.
    const cutoff = new Date();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const later = await fixture.client.get("/api/v1/folders", ua);
    await flush();
    const recent = await listAll(fixture.client, `created_after=${encodeURIComponent(cutoff.toISOString())}`);
    // The listing calls themselves are logged too; none of the seeded requests is.
    expect(recent.map((row) => row.logged_request_id)).toContain(requestIdOf(later));
    expect(recent.map((row) => row.logged_request_id)).not.toContain(ids.created);
    expect(recent.every((row) => new Date(row.created_at) > cutoff)).toBe(true);
  });

  it("pages with a cursor, without gaps or repeats", async () => {
    const fixture = await createFixture(service);
    for (let i = 0; i < 5; i++) await fixture.client.get(`/api/v1/videos?limit=${i + 1}`);
    await flush();
    const expected = (await listAll(fixture.client, "limit=100&path=/api/v1/videos")).map((row) => row.logged_request_id);
    expect(expected).toHaveLength(5);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response: ApiResponse = await fixture.client.get(`/api/v1/logs?limit=2&path=/api/v1/videos${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(response.status, response.text).toBe(200);
      seen.push(...(response.body.data as Row[]).map((row) => row.logged_request_id as string));
      expect(response.body.has_more).toBe(response.body.next_cursor !== null);
      cursor = response.body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(expected);
  });

  it("GET /api/v1/logs/{request_id} returns one entry", async () => {
    const fixture = await createFixture(service);
    const ids = await seedRequests(fixture);
    await flush();
    const one = await fixture.client.get(`/api/v1/logs/${ids.invalid}`);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({ object: "request_log", status: 422, error_code: "validation_failed", method: "POST", route: "/api/v1/videos", key_id: fixture.keyId });
    // The envelope's request_id is this GET's (contract 4.1.5); the entry names its own request as logged_request_id.
    expect(one.body.request_id).toBe(requestIdOf(one));
    const missing = await fixture.client.get("/api/v1/logs/req_doesnotexist0000000000");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("not_found");
  });

  it("GET /api/v1/logs/{request_id} names the logged request in its body", async () => {
    const fixture = await createFixture(service);
    const ids = await seedRequests(fixture);
    await flush();
    const one = await fixture.client.get(`/api/v1/logs/${ids.missing}`);
    expect(one.status, one.text).toBe(200);
    expect(Object.values(one.body)).toContain(ids.missing);
  });

  it("is read-only", async () => {
    const fixture = await createFixture(service);
    const ids = await seedRequests(fixture);
    await flush();
    expect((await fixture.client.post("/api/v1/logs", { method: "GET" })).status).toBe(405);
    expect((await fixture.client.delete(`/api/v1/logs/${ids.ok}`)).status).toBe(405);
    expect((await fixture.client.patch(`/api/v1/logs/${ids.ok}`, { status: 200 })).status).toBe(405);
  });

  it("needs usage:read: 403 insufficient_scope without it", async () => {
    const fixture = await createFixture(service, { scopes: ["videos:*", "api_keys:*"] });
    const list = await fixture.client.get("/api/v1/logs");
    expect(list.status, list.text).toBe(403);
    expect(list.body.error).toMatchObject({ code: "insufficient_scope", details: { required_scopes: ["usage:read"] } });
    const reader = await fixture.newKey({ scopes: ["usage:read"] });
    expect((await reader.client.get("/api/v1/logs")).status).toBe(200);
  });

  it("never shows another workspace's requests", async () => {
    const mine = await createFixture(service);
    const theirs = await createFixture(service);
    const ids = await seedRequests(theirs);
    await mine.client.get("/api/v1/videos");
    await flush();

    const listed = await listAll(mine.client, "limit=100");
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((row) => row.key_id === mine.keyId)).toBe(true);
    expect(await listAll(mine.client, `key_id=${theirs.keyId}`)).toEqual([]);
    const probe = await mine.client.get(`/api/v1/logs/${ids.ok}`);
    expect(probe.status, probe.text).toBe(403);
    expect(probe.body.error.code).toBe("workspace_mismatch");
    // Over GraphQL too.
    const graphql = await mine.client.graphql("{ logs(limit: 100) { data { logged_request_id key_id } } }");
    expect(graphql.body.errors, graphql.text).toBeUndefined();
    expect((graphql.body.data.logs.data as Row[]).every((row) => row.key_id === mine.keyId)).toBe(true);
  });
});
