// Batch (contract 4.5, 5.6, 7, 8; docs/lists.md "Batch"): POST /api/v1/batch runs up to 20 member
// requests in order, each through the whole service with the batch's credential, and answers 200
// with every member's own status, headers and body. Checked over real HTTP against the real
// database.
import { describe, expect, it } from "vitest";
import { createFixture, useService, type ApiResponse, type Client } from "./support/service.js";

const service = useService();

type Row = Record<string, any>;

const prisma = () => service.service.database.prisma;

interface Member {
  id: string;
  method: string;
  path: string;
  body?: Row;
}

function batch(client: Client, requests: unknown[]): Promise<ApiResponse> {
  return client.post("/api/v1/batch", { requests });
}

/** The batch envelope: always 200, one result per member in member order. */
function expectBatch(response: ApiResponse, memberIds: string[], livemode = true): Row[] {
  expect(response.status, response.text).toBe(200);
  expect(response.body).toMatchObject({ object: "batch", livemode });
  expect(response.body.error).toBeUndefined();
  expect(response.body.request_id).toBe(response.headers.get("x-request-id"));
  const data = response.body.data as Row[];
  expect(data.map((member) => member.id)).toEqual(memberIds);
  for (const member of data) {
    expect(Object.keys(member).sort()).toEqual(["body", "headers", "id", "status"]);
    expect(typeof member.status).toBe("number");
    expect(member.headers["x-request-id"]).toMatch(/^req_/);
  }
  return data;
}

function expectError(response: ApiResponse, status: number, code: string): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error, response.text).toMatchObject({ code, status, request_id: response.headers.get("x-request-id") });
  expect(response.body.object).toBeUndefined();
  return response.body.error as Row;
}

async function videoCount(client: Client): Promise<number> {
  const response = await client.get("/api/v1/videos?include_total=true&limit=1");
  expect(response.status, response.text).toBe(200);
  return response.body.total as number;
}

const createVideo = (id: string, name = id): Member => ({ id, method: "POST", path: "/v1/videos", body: { video_name: name } });

describe("POST /api/v1/batch", () => {
  it("runs members in order: a list after a create sees it, a list before does not", async () => {
    const { client } = await createFixture(service);
    const response = await batch(client, [
      { id: "before", method: "GET", path: "/v1/videos?video_lang=zz" },
      { id: "create", method: "POST", path: "/v1/videos", body: { video_name: "From batch", video_lang: "zz" } },
      { id: "after", method: "GET", path: "/v1/videos?video_lang=zz&fields=video_name" },
      { id: "count", method: "get", path: "/v1/videos?include_total=true" },
    ]);
    const [before, created, after, counted] = expectBatch(response, ["before", "create", "after", "count"]);

    expect(before).toMatchObject({ status: 200, body: { object: "list", data: [], has_more: false } });
    expect(created!.status).toBe(201);
    expect(created!.body).toMatchObject({ object: "video", video_name: "From batch", video_lang: "zz", livemode: true });
    const videoId = created!.body.video_id as string;
    expect(videoId).toMatch(/^vid_/);
    expect(after).toMatchObject({ status: 200, body: { object: "list", data: [{ object: "video", video_id: videoId, video_name: "From batch" }] } });
    expect(counted!.body.total).toBe(1);

    // The create really happened.
    const got = await client.get(`/api/v1/videos/${videoId}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body.video_name).toBe("From batch");
  });

  it("gives every member its own request id, distinct from the batch's, in its headers and body", async () => {
    const { client, workspaceId } = await createFixture(service);
    const response = await batch(client, [createVideo("a"), createVideo("b"), { id: "c", method: "GET", path: "/v1/videos" }, { id: "d", method: "GET", path: "/v1/videos/vid_missing000000000000000" }]);
    const data = expectBatch(response, ["a", "b", "c", "d"]);
    const ids = data.map((member) => member.headers["x-request-id"] as string);
    expect(new Set(ids).size).toBe(4);
    expect(ids).not.toContain(response.headers.get("x-request-id"));
    for (const member of data) {
      const bodyRequestId = member.status >= 400 ? member.body.error.request_id : member.body.request_id;
      expect(bodyRequestId).toBe(member.headers["x-request-id"]);
      expect(member.headers["content-type"]).toMatch(/^application\/json/);
    }
    // Each member's write is recorded under its own request id.
    const events = await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId }, orderBy: { seq: "asc" } });
    expect(events.map((event) => [event.type, event.request_id])).toEqual([["video.created", ids[0]], ["video.created", ids[1]]]);
  });

  it("answers 200 even when members fail; a failing member does not stop the ones after it", async () => {
    const { client } = await createFixture(service);
    const response = await batch(client, [
      { id: "put", method: "PUT", path: "/v1/videos", body: { video_name: "x" } },
      { id: "missing", method: "GET", path: "/v1/videos/vid_doesNotExist00000000000" },
      { id: "invalid", method: "POST", path: "/v1/videos", body: { video_name: "x", colour: "red" } },
      { id: "no-route", method: "GET", path: "/v1/nothing_here" },
      createVideo("ok", "Survivor"),
    ]);
    const [put, missing, invalid, noRoute, ok] = expectBatch(response, ["put", "missing", "invalid", "no-route", "ok"]);

    expect(put!.status).toBe(405);
    expect(put!.body.error).toMatchObject({ code: "method_not_allowed", type: "invalid_request_error", status: 405 });
    expect(put!.headers.allow).toBe("GET, POST, HEAD");
    expect(missing!.status).toBe(404);
    expect(missing!.body.error).toMatchObject({ code: "not_found", type: "not_found_error" });
    expect(invalid!.status).toBe(422);
    expect(invalid!.body.error).toMatchObject({ code: "validation_failed", type: "validation_error" });
    expect(invalid!.body.error.details.issues).toEqual([expect.objectContaining({ path: "colour", type: "object.unknown" })]);
    expect(noRoute!.status).toBe(404);
    expect(noRoute!.body.error.code).toBe("not_found");
    expect(ok).toMatchObject({ status: 201, body: { object: "video", video_name: "Survivor" } });

    // Only the successful create was applied.
    expect(await videoCount(client)).toBe(1);
  });

  it("runs PATCH and DELETE members on records that exist", async () => {
    const { client } = await createFixture(service);
    const first = await client.post("/api/v1/videos", { video_name: "first" });
    const second = await client.post("/api/v1/videos", { video_name: "second" });
    const response = await batch(client, [
      { id: "rename", method: "PATCH", path: `/v1/videos/${first.body.video_id}`, body: { video_name: "renamed" } },
      { id: "remove", method: "DELETE", path: `/v1/videos/${second.body.video_id}` },
      { id: "read", method: "GET", path: `/v1/videos/${first.body.video_id}?fields=video_name` },
    ]);
    const [rename, remove, read] = expectBatch(response, ["rename", "remove", "read"]);
    expect(rename).toMatchObject({ status: 200, body: { video_name: "renamed" } });
    expect(remove!.status).toBe(200);
    expect(read).toMatchObject({ status: 200, body: { object: "video", video_id: first.body.video_id, video_name: "renamed" } });
    expect((await client.get(`/api/v1/videos/${second.body.video_id}`)).status).toBe(404);
  });

  it("accepts 20 members", async () => {
    const { client } = await createFixture(service);
    const members = Array.from({ length: 20 }, (_, index) => createVideo(`m${index}`));
    const data = expectBatch(await batch(client, members), members.map((member) => member.id));
    expect(data.every((member) => member.status === 201)).toBe(true);
    expect(await videoCount(client)).toBe(20);
  });

  it("rejects 21 members with 413 payload_too_large and runs none", async () => {
    const { client } = await createFixture(service);
    const members = Array.from({ length: 21 }, (_, index) => createVideo(`m${index}`));
    const error = expectError(await batch(client, members), 413, "payload_too_large");
    expect(error.type).toBe("invalid_request_error");
    expect(await videoCount(client)).toBe(0);
  });

  it("rejects a malformed member with 422 naming it, and runs none of the others", async () => {
    const { client } = await createFixture(service);
    const malformed: [string, Row][] = [
      ["missing path", { id: "bad", method: "GET" }],
      ["full /api path", { id: "bad", method: "GET", path: "/api/v1/videos" }],
      ["relative path", { id: "bad", method: "GET", path: "videos" }],
      ["missing id", { method: "GET", path: "/v1/videos" }],
      ["empty id", { id: "", method: "GET", path: "/v1/videos" }],
      ["missing method", { id: "bad", path: "/v1/videos" }],
      ["body not an object", { id: "bad", method: "POST", path: "/v1/videos", body: ["video_name"] }],
      ["unknown member key", { id: "bad", method: "GET", path: "/v1/videos", headers: { accept: "text/csv" } }],
    ];
    for (const [label, member] of malformed) {
      const error = expectError(await batch(client, [createVideo("first"), member, createVideo("last")]), 422, "validation_failed");
      expect(error.type, label).toBe("validation_error");
      expect(error.param, label).toBe("requests.1");
      expect(error.details.issues.length, label).toBeGreaterThan(0);
      expect(error.details.issues[0].path, label).toMatch(/^requests\.1/);
    }
    expect(await videoCount(client)).toBe(0);
  });

  it("rejects a body without requests, or a requests that is not an array, with 422", async () => {
    const { client } = await createFixture(service);
    expectError(await client.request("POST", "/api/v1/batch"), 422, "validation_failed");
    expectError(await client.post("/api/v1/batch", {}), 422, "validation_failed");
    expectError(await client.post("/api/v1/batch", { requests: createVideo("a") }), 422, "validation_failed");
    expectError(await client.post("/api/v1/batch", { requests: [createVideo("a")], parallel: true }), 422, "validation_failed");
    expectError(await client.request("POST", "/api/v1/batch", { rawBody: "{requests:", headers: { "content-type": "application/json" } }), 400, "invalid_json");
    expect(await videoCount(client)).toBe(0);
  });

  it("rejects duplicate member ids with 400 and runs none", async () => {
    const { client } = await createFixture(service);
    const error = expectError(await batch(client, [createVideo("same"), createVideo("other"), createVideo("same")]), 400, "invalid_request");
    expect(error.param).toBe("requests.2.id");
    expect(await videoCount(client)).toBe(0);
  });

  it("rejects a member that is itself a batch with 400 and runs none", async () => {
    const { client } = await createFixture(service);
    for (const path of ["/v1/batch", "/v1/batch/", "/v1/batch?x=1"]) {
      const error = expectError(await batch(client, [createVideo("first"), { id: "nested", method: "POST", path, body: { requests: [createVideo("inner")] } }]), 400, "invalid_request");
      expect(error.param, path).toBe("requests.1.path");
    }
    expect(await videoCount(client)).toBe(0);
  });

  it("rejects a nested batch however its path is spelled", async () => {
    const { client } = await createFixture(service);
    for (const path of ["/v1/./batch", "/v1/videos/../batch", "/v1/batch//"]) {
      const response = await batch(client, [{ id: "nested", method: "POST", path, body: { requests: [createVideo("inner")] } }]);
      expect(response.status, `${path}: ${response.text}`).toBe(400);
    }
    expect(await videoCount(client)).toBe(0);
  });

  it("does not let a member path leave /api/v1", async () => {
    const { client } = await createFixture(service);
    await client.post("/api/v1/videos", { video_name: "secret-ish" });
    const response = await batch(client, [{ id: "escape", method: "POST", path: "/v1/../../graphql", body: { query: "{ videos { data { video_id } } }" } }]);
    if (response.status === 200) {
      expect(response.body.data[0].status, response.text).toBeGreaterThanOrEqual(400);
      expect(response.body.data[0].body.data).toBeUndefined();
    } else {
      expect(response.body.error, response.text).toBeDefined();
    }
  });

  it("answers GET (and other verbs) on /api/v1/batch with 405 and Allow: POST", async () => {
    const { client } = await createFixture(service);
    for (const method of ["GET", "PUT", "PATCH", "DELETE"]) {
      const response = await client.request(method, "/api/v1/batch");
      expectError(response, 405, "method_not_allowed");
      expect(response.headers.get("allow")).toBe("POST");
    }
  });
});

describe("scopes and authentication per member", () => {
  it("checks each member on its own route: a read-only key reads inside the batch but cannot write", async () => {
    const fixture = await createFixture(service);
    const existing = await fixture.client.post("/api/v1/videos", { video_name: "existing" });
    const reader = await fixture.newKey({ scopes: ["videos:read"] });

    const response = await batch(reader.client, [
      { id: "list", method: "GET", path: "/v1/videos" },
      createVideo("create"),
      { id: "delete", method: "DELETE", path: `/v1/videos/${existing.body.video_id}` },
      { id: "folders", method: "GET", path: "/v1/folders" },
      { id: "get", method: "GET", path: `/v1/videos/${existing.body.video_id}` },
    ]);
    const [list, create, remove, folders, get] = expectBatch(response, ["list", "create", "delete", "folders", "get"]);
    expect(list!.status).toBe(200);
    expect(list!.body.data.map((video: Row) => video.video_id)).toEqual([existing.body.video_id]);
    for (const [member, required] of [[create, "videos:write"], [remove, "videos:delete"], [folders, "folders:read"]] as const) {
      expect(member!.status).toBe(403);
      expect(member!.body.error).toMatchObject({ code: "insufficient_scope", type: "permission_error" });
      expect(member!.body.error.details.required_scopes).toContain(required);
      expect(member!.body.error.details.granted_scopes).toEqual(["videos:read"]);
    }
    expect(get).toMatchObject({ status: 200, body: { video_name: "existing" } });
    expect(await videoCount(fixture.client)).toBe(1);
  });

  it("reaches only the key's workspace from a member", async () => {
    const { client } = await createFixture(service);
    const other = await createFixture(service);
    const theirs = await other.client.post("/api/v1/videos", { video_name: "theirs" });
    const response = await batch(client, [
      { id: "get", method: "GET", path: `/v1/videos/${theirs.body.video_id}` },
      { id: "patch", method: "PATCH", path: `/v1/videos/${theirs.body.video_id}`, body: { video_name: "mine now" } },
      { id: "list", method: "GET", path: "/v1/videos" },
    ]);
    const [get, patch, list] = expectBatch(response, ["get", "patch", "list"]);
    expect([403, 404]).toContain(get!.status);
    expect(patch!.status).toBe(403);
    expect(patch!.body.error.code).toBe("workspace_mismatch");
    expect(list!.body.data).toEqual([]);
    expect((await other.client.get(`/api/v1/videos/${theirs.body.video_id}`)).body.video_name).toBe("theirs");
  });

  it("needs a credential for the batch itself", async () => {
    const { client } = await createFixture(service);
    expectError(await client.post("/api/v1/batch", { requests: [createVideo("a")] }, { key: null }), 401, "missing_credentials");
    expectError(await client.post("/api/v1/batch", { requests: [createVideo("a")] }, { key: "sk_live_notARealKey000000000000000000" }), 401, "invalid_credentials");
    expect(await videoCount(client)).toBe(0);
  });
});

describe("test mode", () => {
  it("runs members as test-mode requests: x-test-mode on each, livemode false, and nothing written", async () => {
    const live = await createFixture(service);
    const existing = await live.client.post("/api/v1/videos", { video_name: "original" });
    const doomed = await live.client.post("/api/v1/videos", { video_name: "doomed" });
    const eventsBefore = await prisma().outboxEvent.findMany({ where: { workspace_id: live.workspaceId }, orderBy: { seq: "asc" } });
    const { client: test } = await live.newKey({ mode: "test", scopes: ["*:*"] });

    const response = await batch(test, [
      createVideo("create", "simulated"),
      { id: "patch", method: "PATCH", path: `/v1/videos/${existing.body.video_id}`, body: { video_name: "simulated rename" } },
      { id: "delete", method: "DELETE", path: `/v1/videos/${doomed.body.video_id}` },
      { id: "folder", method: "POST", path: "/v1/folders", body: { folder_name: "simulated" } },
      { id: "list", method: "GET", path: "/v1/videos" },
    ]);
    expect(response.headers.get("x-test-mode")).toBe("true");
    const data = expectBatch(response, ["create", "patch", "delete", "folder", "list"], false);
    expect(data.map((member) => member.status)).toEqual([201, 200, 200, 201, 200]);
    for (const member of data) {
      expect(member.headers["x-test-mode"], member.id).toBe("true");
      expect(member.body.livemode, member.id).toBe(false);
    }
    // Reads see the real records only: the simulated create, rename and delete did not happen.
    expect((data[4]!.body.data as Row[]).map((video) => video.video_name).sort()).toEqual(["doomed", "original"]);

    expect((await live.client.get(`/api/v1/videos/${data[0]!.body.video_id}`)).status).toBe(404);
    expect((await live.client.get(`/api/v1/videos/${existing.body.video_id}`)).body.video_name).toBe("original");
    expect((await live.client.get(`/api/v1/videos/${doomed.body.video_id}`)).status).toBe(200);
    expect(await videoCount(live.client)).toBe(2);
    expect((await live.client.get("/api/v1/folders?include_total=true")).body.total).toBe(0);
    expect(await prisma().outboxEvent.findMany({ where: { workspace_id: live.workspaceId }, orderBy: { seq: "asc" } })).toEqual(eventsBefore);
  });

  it("a live key's members carry no x-test-mode header", async () => {
    const { client } = await createFixture(service);
    const response = await batch(client, [{ id: "list", method: "GET", path: "/v1/videos" }]);
    expect(response.headers.get("x-test-mode")).toBeNull();
    const [list] = expectBatch(response, ["list"]);
    expect(list!.headers["x-test-mode"]).toBeUndefined();
    expect(list!.body.livemode).toBe(true);
  });
});
