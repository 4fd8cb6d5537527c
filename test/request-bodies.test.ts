// Requests the service cannot read: on /graphql (no query, no or a non-JSON Content-Type, a body
// that is not one JSON object, a wrong verb) and on REST (a body that is not declared JSON). Every
// one answers the contract's envelope with its own 4xx status, in our own words; GraphQL answers
// also carry the same fields in errors[0].extensions.
import { describe, expect, it } from "vitest";
import { ERROR_CODES, type ErrorCode } from "../src/errors/codes.js";
import { createFixture, useService, type ApiResponse } from "./support/service.js";

const service = useService();

function expectEnvelope(response: ApiResponse, code: ErrorCode): Record<string, any> {
  expect(response.status, response.text).toBe(ERROR_CODES[code].status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const error = response.body?.error;
  expect(error, response.text).toMatchObject({ code, status: ERROR_CODES[code].status, type: ERROR_CODES[code].type, retryable: false });
  expect(error.request_id).toBe(response.headers.get("x-request-id"));
  expect(error.doc_url.endsWith(`/docs/api/errors#${code}`)).toBe(true);
  expect(error.message).not.toMatch(/Must provide|POST body sent|GraphQL only supports|Variable "\$/);
  return error;
}

function expectGraphQLEnvelope(response: ApiResponse, code: ErrorCode): Record<string, any> {
  const error = expectEnvelope(response, code);
  expect(response.body.errors[0].extensions).toEqual(error);
  expect(Object.keys(error)).not.toContain("http");
  return error;
}

const QUERY = JSON.stringify({ query: "{ videos { data { video_id } } }" });

describe("POST /graphql that the service cannot read", () => {
  it("answers a body without a query with 400 invalid_request naming `query`", async () => {
    const { client } = await createFixture(service);
    for (const body of [{}, { variables: {} }, { query: "" }, { query: 42 }]) {
      const error = expectGraphQLEnvelope(await client.post("/graphql", body), "invalid_request");
      expect(error.param).toBe("query");
    }
  });

  it("answers a body without Content-Type, or with a non-JSON one, with 415 unsupported_media_type", async () => {
    const { client } = await createFixture(service);
    const withoutType = await client.request("POST", "/graphql", { rawBody: QUERY, headers: { "content-type": "" } });
    expect(expectGraphQLEnvelope(withoutType, "unsupported_media_type").message).toContain("no Content-Type");
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const response = await client.request("POST", "/graphql", { rawBody: QUERY, headers: { "content-type": type } });
      expect(expectGraphQLEnvelope(response, "unsupported_media_type").details.content_type).toBe(type);
    }
    // The same document as JSON runs.
    const ok = await client.request("POST", "/graphql", { rawBody: QUERY, headers: { "content-type": "application/json; charset=utf-8" } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.videos.data).toEqual([]);
  });

  it("answers broken JSON with 400 invalid_json, and anything but one object with 400 invalid_request", async () => {
    const { client } = await createFixture(service);
    const json = { "content-type": "application/json" };
    expectGraphQLEnvelope(await client.request("POST", "/graphql", { rawBody: '{"query": ', headers: json }), "invalid_json");
    for (const rawBody of ["[]", `[${QUERY}]`, '"{ videos { object } }"', "null"]) {
      expectGraphQLEnvelope(await client.request("POST", "/graphql", { rawBody, headers: json }), "invalid_request");
    }
    const variables = expectGraphQLEnvelope(await client.post("/graphql", { query: "{ videos { object } }", variables: "x" }), "invalid_request");
    expect(variables.param).toBe("variables");
  });

  it("answers a document that does not parse or validate with 400, not 200", async () => {
    const { client } = await createFixture(service);
    expectGraphQLEnvelope(await client.graphql("{ videos { data { video_id }"), "invalid_request");
    expectGraphQLEnvelope(await client.graphql("{ no_such_field }"), "invalid_request");
    // A field that fails while resolving still follows GraphQL over HTTP: 200 with the envelope.
    const resolved = await client.graphql('{ video(video_id: "vid_missing") { video_id } }');
    expect(resolved.status).toBe(200);
    expect(resolved.body.error.code).toBe("not_found");
  });

  it("answers a wrong verb with 405 and Allow, a GET without a query with 400, a mutation over GET with 405", async () => {
    const { client } = await createFixture(service);
    const put = await client.request("PUT", "/graphql", { body: { query: "{ videos { object } }" } });
    expectGraphQLEnvelope(put, "method_not_allowed");
    expect(put.headers.get("allow")).toBe("GET, POST");
    expect(expectGraphQLEnvelope(await client.get("/graphql"), "invalid_request").param).toBe("query");
    const mutation = await client.get(`/graphql?query=${encodeURIComponent('mutation { delete_video(video_id: "vid_x") { deleted } }')}`);
    expectGraphQLEnvelope(mutation, "method_not_allowed");
    expect(mutation.headers.get("allow")).toBe("POST");
    const query = await client.get(`/graphql?query=${encodeURIComponent("{ videos { object } }")}`);
    expect(query.status).toBe(200);
  });
});

describe("REST bodies that are not declared JSON", () => {
  it("refuses form data, plain text and a missing Content-Type with 415 before reading the body", async () => {
    const { client } = await createFixture(service);
    const body = JSON.stringify({ video_name: "Not read" });
    for (const type of ["application/x-www-form-urlencoded", "text/plain;charset=UTF-8", ""]) {
      const response = await client.request("POST", "/api/v1/videos", { rawBody: body, headers: { "content-type": type } });
      const error = expectEnvelope(response, "unsupported_media_type");
      expect(error.details.accepted).toEqual(["application/json"]);
      expect(error.hint).toContain("Content-Type: application/json");
    }
    const patch = await client.request("PATCH", "/api/v1/videos/vid_missing", { rawBody: body, headers: { "content-type": "text/plain" } });
    expectEnvelope(patch, "unsupported_media_type");
    const batch = await client.request("POST", "/api/v1/batch", { rawBody: JSON.stringify({ requests: [] }), headers: { "content-type": "text/plain" } });
    expectEnvelope(batch, "unsupported_media_type");
    // Nothing was created.
    expect((await client.get("/api/v1/videos?include_total=true")).body.total).toBe(0);
  });

  it("reads JSON under application/json with parameters, or a +json type, and needs no type without a body", async () => {
    const { client } = await createFixture(service);
    const created = await client.request("POST", "/api/v1/folders", { rawBody: JSON.stringify({ folder_name: "A" }), headers: { "content-type": "application/json; charset=utf-8" } });
    expect(created.status).toBe(201);
    const patched = await client.request("PATCH", `/api/v1/folders/${created.body.folder_id}`, {
      rawBody: JSON.stringify({ folder_name: "B" }),
      headers: { "content-type": "application/merge-patch+json" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.folder_name).toBe("B");
    const deleted = await client.request("DELETE", `/api/v1/folders/${created.body.folder_id}`);
    expect(deleted.status).toBe(200);
  });
});
