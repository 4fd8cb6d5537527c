// The seven causes of the 450 malformed requests that answered 500 (issue "Reliability and
// security", 1), each as it was reported: every one is now a 4xx in the contract's envelope,
// naming the offending parameter or field. test/fuzz.test.ts keeps the whole class away; these
// pin the exact requests.
import { describe, expect, it } from "vitest";
import { createFixture, useService, type ApiResponse } from "./support/service.js";

const service = useService();

function expectRefusal(response: ApiResponse, status: number, code: string, param?: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error, response.text).toMatchObject({ code, status, request_id: response.headers.get("x-request-id") });
  if (param !== undefined) expect(response.body.error.param, response.text).toBe(param);
  return response.body.error as { details?: { issues?: { path: string; type: string }[] } };
}

/** A cursor of the service's own shape, with any sort value in it. */
function cursor(sort: string, value: unknown, order = "desc"): string {
  return Buffer.from(JSON.stringify({ s: sort, o: order, v: value, i: "vid_x" })).toString("base64url");
}

describe("NUL bytes (PostgreSQL 22021)", () => {
  it("in an id, a query value, a record field, a JSON field and a GraphQL argument", async () => {
    const { client } = await createFixture(service);
    expectRefusal(await client.get("/api/v1/videos/a%00b"), 400, "invalid_request", "video_id");
    expectRefusal(await client.delete("/api/v1/folders/a%00b"), 400, "invalid_request", "folder_id");
    expectRefusal(await client.get("/api/v1/videos?q=a%00b"), 400, "invalid_request", "q");
    expectRefusal(await client.get("/api/v1/videos?video_lang=a%00b"), 400, "invalid_request", "video_lang");
    const field = expectRefusal(await client.post("/api/v1/folders", { folder_name: "a\u0000b" }), 422, "validation_failed", "folder_name");
    expect(field.details?.issues).toEqual([expect.objectContaining({ path: "folder_name", type: "string.nul" })]);
    const nested = expectRefusal(await client.post("/api/v1/videos", { video_name: "x", config: { "k\u0000": 1 } }), 422, "validation_failed");
    expect(nested.details?.issues?.[0]).toMatchObject({ path: "config.k\u0000", type: "string.nul" });
    const graphql = await client.graphql('mutation { create_folder(input: { folder_name: "a\\u0000b" }) { folder_id } }');
    expect(graphql.body.errors[0].extensions).toMatchObject({ code: "validation_failed", details: { issues: [{ path: "create_folder.input.folder_name", type: "string.nul" }] } });
    expect((await client.get("/api/v1/folders")).body.data).toEqual([]);
  });
});

describe("lone UTF-16 surrogates (PostgreSQL 22P05)", () => {
  it("in a JSON field over REST and in GraphQL variables", async () => {
    const { client } = await createFixture(service);
    const rest = expectRefusal(await client.request("POST", "/api/v1/videos", { rawBody: '{"video_name":"x","config":{"a":"\\ud800"}}', headers: { "content-type": "application/json" } }), 422, "validation_failed", "config.a");
    expect(rest.details?.issues?.[0]?.type).toBe("string.surrogate");
    // In a text column it used to be stored silently as U+FFFD.
    expectRefusal(await client.request("POST", "/api/v1/folders", { rawBody: '{"folder_name":"a\\udc00b"}', headers: { "content-type": "application/json" } }), 422, "validation_failed", "folder_name");
    const graphql = await client.graphql("mutation($input: VideoCreateInput!) { create_video(input: $input) { video_id } }", { input: { video_name: "\ud800" } });
    expect(graphql.body.errors[0].extensions).toMatchObject({ code: "validation_failed", param: "variables.input.video_name" });
    // A proper pair is text like any other.
    expect((await client.post("/api/v1/folders", { folder_name: "𝒳" })).status).toBe(201);
  });
});

describe("forged cursors", () => {
  it("whose value has the wrong type for its sort field are 400 on every list, not a 500", async () => {
    const { client } = await createFixture(service);
    for (const value of [{ x: 1 }, [1], "not a date", true, "-271821-04-20T00:00:00.000Z"]) {
      expectRefusal(await client.get(`/api/v1/videos?cursor=${cursor("video_created_at", value)}`), 400, "invalid_request", "cursor");
    }
    for (const value of [{ x: 1 }, 12, "a\u0000"]) {
      expectRefusal(await client.get(`/api/v1/videos?sort=video_name&cursor=${cursor("video_name", value)}`), 400, "invalid_request", "cursor");
    }
    expectRefusal(await client.get(`/api/v1/folders?sort=folder_order&cursor=${cursor("folder_order", "1")}`), 400, "invalid_request", "cursor");
    expectRefusal(await client.get(`/api/v1/folders?sort=folder_order&cursor=${cursor("folder_order", 1e300)}`), 400, "invalid_request", "cursor");
    const graphql = await client.graphql(`{ videos(cursor: "${cursor("video_created_at", { x: 1 })}") { object } }`);
    expect(graphql.body.errors[0].extensions).toMatchObject({ code: "invalid_request", param: "cursor" });
    // The cursors the service issues still page.
    for (const name of ["a", "b", "c"]) await client.post("/api/v1/folders", { folder_name: name });
    const first = await client.get("/api/v1/folders?limit=2&sort=folder_name&order=asc");
    const next = await client.get(`/api/v1/folders?limit=2&sort=folder_name&order=asc&cursor=${first.body.next_cursor}`);
    expect(next.body.data.map((folder: { folder_name: string }) => folder.folder_name)).toEqual(["c"]);
  });
});

describe("out-of-range dates (PostgreSQL 22009)", () => {
  it.each(["-271821-04-20T00:00:00Z", "275760-09-13T00:00:00Z", "0000-06-01T00:00:00Z", "99999999999999"])("created_after=%s is 400 naming it", async (value) => {
    const { client } = await createFixture(service);
    expectRefusal(await client.get(`/api/v1/videos?created_after=${encodeURIComponent(value)}`), 400, "invalid_request", "created_after");
    expectRefusal(await client.get(`/api/v1/videos?video_created_at[gt]=${encodeURIComponent(value)}`), 400, "invalid_request", "video_created_at[gt]");
  });

  it("in a date field of a record is 422 date.range", async () => {
    const { client } = await createFixture(service);
    const error = expectRefusal(await client.post("/api/v1/videos", { video_name: "x", video_last_audios_edition: "0000-01-01T00:00:00Z" }), 422, "validation_failed", "video_last_audios_edition");
    expect(error.details?.issues?.[0]?.type).toBe("date.range");
    expect((await client.post("/api/v1/videos", { video_name: "x", video_last_audios_edition: "0001-01-01T00:00:00Z" })).status).toBe(201);
  });
});

describe("deeply nested bodies", () => {
  it("5,000 levels are a 422 naming where the nesting passed 64, not a stack overflow", async () => {
    const { client } = await createFixture(service);
    const deep = `{"video_name":"x","config":${"[".repeat(5000)}1${"]".repeat(5000)}}`;
    const error = expectRefusal(await client.request("POST", "/api/v1/videos", { rawBody: deep, headers: { "content-type": "application/json" } }), 422, "validation_failed");
    expect(error.details?.issues?.[0]).toMatchObject({ type: "object.depth" });
    expect(error.details!.issues![0]!.path.startsWith("config.0.0")).toBe(true);
    // 64 levels in all (the body is the first) are fine.
    const deepest = `{"video_name":"x","config":${"[".repeat(63)}1${"]".repeat(63)}}`;
    expect((await client.request("POST", "/api/v1/videos", { rawBody: deepest, headers: { "content-type": "application/json" } })).status).toBe(201);
  });
});

describe("paths with empty segments", () => {
  it("GET /api/v1//videos is a 404; a trailing slash is the route itself", async () => {
    const { client } = await createFixture(service);
    expectRefusal(await client.get("/api/v1//videos"), 404, "not_found");
    expectRefusal(await client.get("/api/v1/videos//x"), 404, "not_found");
    const trailing = await client.get("/api/v1/videos/");
    expect(trailing.status, trailing.text).toBe(200);
    expect(trailing.body.object).toBe("list");
  });
});

describe("batch members with verbs a request cannot carry", () => {
  it.each(["TRACE", "CONNECT", "TRACK"])("a member with method %s makes the batch a 422 naming it, and runs nothing", async (method) => {
    const { client } = await createFixture(service);
    const response = await client.post("/api/v1/batch", {
      requests: [
        { id: "a", method: "POST", path: "/v1/folders", body: { folder_name: "first" } },
        { id: "b", method, path: "/v1/videos" },
      ],
    });
    const error = expectRefusal(response, 422, "validation_failed", "requests.1");
    expect(error.details?.issues?.[0]?.path).toBe("requests.1.method");
    expect((await client.get("/api/v1/folders")).body.data).toEqual([]);
  });
});
