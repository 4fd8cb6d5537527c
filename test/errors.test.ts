// The one failure envelope (contract section 7) on every failure the REST and GraphQL surfaces
// produce, the request id on every response (4.1.5), and the keyless health route (4.6).
// Real HTTP against the real service; every test makes its own workspace.
import { describe, expect, it } from "vitest";
import { createFixture, useService, type ApiResponse, type Client } from "./support/service.js";

const service = useService();

/** The code table of contract section 7 (the codes these tests meet): status, type, retryable. */
const CONTRACT_CODES: Record<string, { status: number; type: string; retryable: boolean }> = {
  invalid_request: { status: 400, type: "invalid_request_error", retryable: false },
  invalid_json: { status: 400, type: "invalid_request_error", retryable: false },
  missing_credentials: { status: 401, type: "authentication_error", retryable: false },
  invalid_credentials: { status: 401, type: "authentication_error", retryable: false },
  insufficient_scope: { status: 403, type: "permission_error", retryable: false },
  workspace_mismatch: { status: 403, type: "permission_error", retryable: false },
  not_found: { status: 404, type: "not_found_error", retryable: false },
  method_not_allowed: { status: 405, type: "invalid_request_error", retryable: false },
  validation_failed: { status: 422, type: "validation_error", retryable: false },
};

/** Video fields accepted on create and update (contract 2.3). */
const CONTRACT_VIDEO_FIELDS = [
  "video_name", "video_text_publication", "video_comment", "video_ready_to_be_processed", "published", "platform_published",
  "video_template", "video_format", "voice_settings", "config_avatars", "config", "video_json", "video_user_id", "video_keyword",
  "video_id", "folder_ids", "video_created_at", "video_music", "video_last_audios_edition", "video_type_id", "video_script",
  "video_sub_type_id", "video_lang", "creation_mode", "studio_origin", "studio_state", "studio_setup", "duplicate",
  "video_files_storage_provider", "video_captions", "web_infos", "precise_edit_config", "composition", "blocks", "groups",
  "voice_settings_map", "template_type", "video_type", "smart_groups", "faceless_scenes", "faceless_script",
  "faceless_voice_settings", "faceless_ai_model", "faceless_image_agent", "faceless_image_settings", "faceless_video_agent",
  "faceless_language", "faceless_style", "faceless_target_duration", "faceless_story_prompt", "faceless_dialogue_prompt",
  "faceless_script_prompt_image", "faceless_script_prompt_video", "faceless_status", "faceless_metadata", "faceless_output_url",
  "faceless_thumbnail_url", "faceless_scene_groups", "faceless_scene_types", "faceless_general_prompt",
  "faceless_detected_characters", "faceless_character_style_prompt", "faceless_selected_characters", "faceless_template",
];
/** Identity, ownership and timestamps: set by the service, ignored when sent (2.1.2), so not "writable". */
const SERVICE_SET_VIDEO_FIELDS = ["video_id", "video_user_id", "video_created_at"];

/** Collects every object key anywhere in a JSON value. */
function allKeys(value: unknown, keys = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) allKeys(item, keys);
  else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      keys.add(key);
      allKeys(inner, keys);
    }
  }
  return keys;
}

/** Nothing of the service's insides: no stack, no source paths, no driver or SQL text. */
function expectNoInternals(text: string, body: unknown): void {
  const keys = allKeys(body);
  for (const forbidden of ["stack", "stacktrace", "originalError", "exception", "cause"]) expect(keys.has(forbidden)).toBe(false);
  expect(text).not.toMatch(/\n\s*at\s/); // stack frames
  expect(text).not.toMatch(/\(?(?:\/|file:\/\/)[\w./-]+\.(?:ts|js|mjs):\d+(?::\d+)?\)?/); // source locations
  expect(text).not.toMatch(/node_modules/);
  expect(text).not.toMatch(/prisma/i);
  expect(text).not.toMatch(/\bP\d{4}\b/); // Prisma error codes
  expect(text).not.toMatch(/\b(?:SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b/);
  expect(text).not.toMatch(/\b(?:TypeError|ReferenceError|URIError|RangeError|SyntaxError: Unexpected)\b/);
}

/** The envelope of section 7 with the given code, tied to the response's X-Request-Id. */
function expectErrorEnvelope(response: ApiResponse, code: string) {
  const spec = CONTRACT_CODES[code]!;
  expect(response.status, response.text).toBe(spec.status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const requestId = response.headers.get("x-request-id");
  expect(requestId).toBeTruthy();
  expect(Object.keys(response.body)).toEqual(["error"]);
  const error = response.body.error;
  expect(error).toMatchObject({ type: spec.type, code, status: spec.status, retryable: spec.retryable, request_id: requestId });
  expect(typeof error.message).toBe("string");
  expect(error.message.length).toBeGreaterThan(0);
  expect(typeof error.livemode).toBe("boolean");
  expect(error.doc_url.endsWith(`/docs/api/errors#${code}`)).toBe(true);
  expect(() => new URL(error.doc_url)).not.toThrow();
  expectNoInternals(response.text, response.body);
  return error;
}

interface Issue {
  path: string;
  message: string;
  type: string;
  allowed?: string[];
  did_you_mean?: string;
}

function expectIssues(response: ApiResponse): Issue[] {
  const error = expectErrorEnvelope(response, "validation_failed");
  const issues = error.details?.issues as Issue[];
  expect(Array.isArray(issues)).toBe(true);
  expect(issues.length).toBeGreaterThan(0);
  for (const issue of issues) {
    expect(typeof issue.path).toBe("string");
    expect(typeof issue.message).toBe("string");
    expect(issue.message.length).toBeGreaterThan(0);
    expect(typeof issue.type).toBe("string");
  }
  return issues;
}

function issueAt(issues: Issue[], path: string): Issue {
  const issue = issues.find((candidate) => candidate.path === path);
  expect(issue, `no issue at '${path}' in ${JSON.stringify(issues)}`).toBeDefined();
  return issue!;
}

function allowedMethods(response: ApiResponse): string[] {
  const allow = response.headers.get("allow");
  expect(allow, "405 without an Allow header").toBeTruthy();
  return allow!.split(",").map((method) => method.trim().toUpperCase());
}

async function createVideo(client: Client, body: Record<string, unknown> = { video_name: "Original" }) {
  const created = await client.post("/api/v1/videos", body);
  expect(created.status, created.text).toBe(201);
  return created.body as Record<string, any>;
}

async function videoCount(client: Client): Promise<number> {
  const list = await client.get("/api/v1/videos?include_total=true&limit=1");
  expect(list.status).toBe(200);
  return list.body.total as number;
}

const JSON_HEADERS = { "content-type": "application/json" };

describe("400 invalid_json", () => {
  it("rejects a malformed body on create (POST) and changes nothing", async () => {
    const { client } = await createFixture(service);
    for (const rawBody of ['{"video_name": "x"', "{bad", "video_name=x", '{"video_name": "x",}']) {
      const response = await client.request("POST", "/api/v1/videos", { rawBody, headers: JSON_HEADERS });
      expectErrorEnvelope(response, "invalid_json");
    }
    const folder = await client.request("POST", "/api/v1/folders", { rawBody: "{'folder_name': 'single quotes'}", headers: JSON_HEADERS });
    expectErrorEnvelope(folder, "invalid_json");
    expect(await videoCount(client)).toBe(0);
  });

  it("rejects a malformed body on update (PATCH and its POST alias) and leaves the record as it was", async () => {
    const { client } = await createFixture(service);
    const video = await createVideo(client);
    const patched = await client.request("PATCH", `/api/v1/videos/${video.video_id}`, { rawBody: '{"video_name": ', headers: JSON_HEADERS });
    expectErrorEnvelope(patched, "invalid_json");
    const aliased = await client.request("POST", `/api/v1/videos/${video.video_id}`, { rawBody: "[1, 2", headers: JSON_HEADERS });
    expectErrorEnvelope(aliased, "invalid_json");

    const fetched = await client.get(`/api/v1/videos/${video.video_id}`);
    expect(fetched.body.video_name).toBe("Original");
    expect(fetched.body.video_updated_at).toBe(video.video_updated_at);
  });
});

describe("404 not_found", () => {
  it("answers an unknown route, inside and outside /api/v1", async () => {
    const { client } = await createFixture(service);
    expectErrorEnvelope(await client.get("/api/v1/nope"), "not_found");
    expectErrorEnvelope(await client.post("/api/v1/nope", { a: 1 }), "not_found");
    expectErrorEnvelope(await client.get("/api/v1/videos/vid_x/extra"), "not_found");
    expectErrorEnvelope(await client.get("/nope"), "not_found");
    expectErrorEnvelope(await client.get("/nope", { key: null }), "not_found");
  });

  it("answers an unknown id on get, update and delete of videos and folders", async () => {
    const { client } = await createFixture(service);
    for (const path of ["/api/v1/videos/vid_00000000000000000000xx", "/api/v1/folders/fld_00000000000000000000xx"]) {
      expectErrorEnvelope(await client.get(path), "not_found");
      expectErrorEnvelope(await client.patch(path, {}), "not_found");
      expectErrorEnvelope(await client.post(path, {}), "not_found");
      expectErrorEnvelope(await client.delete(path), "not_found");
    }
  });

  it("answers a deleted id", async () => {
    const { client } = await createFixture(service);
    const video = await createVideo(client);
    expect((await client.delete(`/api/v1/videos/${video.video_id}`)).status).toBe(200);
    expectErrorEnvelope(await client.get(`/api/v1/videos/${video.video_id}`), "not_found");
    expectErrorEnvelope(await client.delete(`/api/v1/videos/${video.video_id}`), "not_found");
  });

  it("answers an id with a malformed percent-escape as a client error, not internal_error", async () => {
    const { client } = await createFixture(service);
    for (const path of ["/api/v1/videos/%zz", "/api/v1/folders/%E0%A4%A"]) {
      const response = await client.get(path);
      expect(response.status, response.text).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(["not_found", "invalid_request"]).toContain(response.body.error.code);
      expect(response.body.error.retryable).toBe(false);
    }
  });
});

describe("405 method_not_allowed", () => {
  it("answers PUT on a video with the verbs the path takes in Allow", async () => {
    const { client } = await createFixture(service);
    const video = await createVideo(client);
    const response = await client.request("PUT", `/api/v1/videos/${video.video_id}`, { body: { video_name: "x" } });
    expectErrorEnvelope(response, "method_not_allowed");
    const allow = allowedMethods(response);
    expect(allow).toEqual(expect.arrayContaining(["GET", "PATCH", "DELETE"]));
    expect(allow).not.toContain("PUT");
    // PUT changed nothing.
    expect((await client.get(`/api/v1/videos/${video.video_id}`)).body.video_name).toBe("Original");
  });

  it("answers DELETE on the video collection with Allow naming GET and POST", async () => {
    const { client } = await createFixture(service);
    await createVideo(client);
    const response = await client.delete("/api/v1/videos");
    expectErrorEnvelope(response, "method_not_allowed");
    const allow = allowedMethods(response);
    expect(allow).toEqual(expect.arrayContaining(["GET", "POST"]));
    expect(allow).not.toContain("DELETE");
    expect(await videoCount(client)).toBe(1);
  });

  it("answers POST on /api/v1/health, with or without a key, with Allow naming GET", async () => {
    const { client } = await createFixture(service);
    for (const key of [undefined, null] as const) {
      const response = await client.request("POST", "/api/v1/health", { body: {}, key });
      expectErrorEnvelope(response, "method_not_allowed");
      const allow = allowedMethods(response);
      expect(allow).toContain("GET");
      expect(allow).not.toContain("POST");
    }
  });
});

describe("422 validation_failed", () => {
  it("names an unknown field with object.unknown, the writable fields in `allowed`, and did_you_mean when close", async () => {
    const { client } = await createFixture(service);
    const response = await client.post("/api/v1/videos", { video_nam: "Typo" });
    const issues = expectIssues(response);
    const issue = issueAt(issues, "video_nam");
    expect(issue.type).toBe("object.unknown");
    expect(issue.did_you_mean).toBe("video_name");

    // `allowed` is the video fields of contract 2.3, every one of them: the service-set ones are
    // listed there and accepted (ignored, 2.1); nothing else (not the internal workspace_id).
    const allowed = issue.allowed!;
    expect(Array.isArray(allowed)).toBe(true);
    expect(allowed).toEqual(expect.arrayContaining(SERVICE_SET_VIDEO_FIELDS));
    expect([...allowed].sort()).toEqual([...CONTRACT_VIDEO_FIELDS].sort());
    expect(allowed).not.toContain("workspace_id");
    expect(response.body.error.param).toBe("video_nam");
    expect(await videoCount(client)).toBe(0);
  });

  it("suggests video_name for the camelCase videoName, on create and on update", async () => {
    const { client } = await createFixture(service);
    const created = issueAt(expectIssues(await client.post("/api/v1/videos", { videoName: "Camel" })), "videoName");
    expect(created).toMatchObject({ type: "object.unknown", did_you_mean: "video_name" });

    const video = await createVideo(client);
    const updated = issueAt(expectIssues(await client.patch(`/api/v1/videos/${video.video_id}`, { videoName: "Camel" })), "videoName");
    expect(updated).toMatchObject({ type: "object.unknown", did_you_mean: "video_name" });
    expect(updated.allowed).toContain("video_name");
    expect((await client.get(`/api/v1/videos/${video.video_id}`)).body.video_name).toBe("Original");
  });

  it("gives no did_you_mean for a name close to nothing, and one issue per unknown field", async () => {
    const { client } = await createFixture(service);
    const issues = expectIssues(await client.post("/api/v1/videos", { qqqqzzzzwwww: 1, video_nam: "x", video_name: "ok" }));
    const far = issueAt(issues, "qqqqzzzzwwww");
    expect(far.type).toBe("object.unknown");
    expect(far.did_you_mean).toBeUndefined();
    expect(far.allowed).toContain("video_name");
    expect(issueAt(issues, "video_nam").did_you_mean).toBe("video_name");
    expect(issues.filter((issue) => issue.type === "object.unknown")).toHaveLength(2);
  });

  it("names the folder fields for an unknown folder field", async () => {
    const { client } = await createFixture(service);
    const issue = issueAt(expectIssues(await client.post("/api/v1/folders", { folder_name: "A", folder_nme: "B" })), "folder_nme");
    expect(issue).toMatchObject({ type: "object.unknown", did_you_mean: "folder_name" });
    expect(issue.allowed).toEqual(expect.arrayContaining(["folder_name", "folder_scope", "folder_color", "folder_order"]));
    expect(issue.allowed).not.toContain("workspace_id");
  });

  it("reports every wrong type: an enum value outside its set (any.only) and a non-boolean (boolean.base)", async () => {
    const { client } = await createFixture(service);
    const issues = expectIssues(await client.post("/api/v1/videos", { video_format: "tall", published: "yes" }));
    expect(issueAt(issues, "video_format").type).toBe("any.only");
    expect(issueAt(issues, "published").type).toBe("boolean.base");
    expect(await videoCount(client)).toBe(0);

    const video = await createVideo(client);
    const onUpdate = expectIssues(await client.patch(`/api/v1/videos/${video.video_id}`, { video_format: "tall" }));
    expect(issueAt(onUpdate, "video_format").type).toBe("any.only");
    expect((await client.get(`/api/v1/videos/${video.video_id}`)).body.video_format).toBe(video.video_format);
  });

  it("reports a missing required field with any.required (folder without folder_name)", async () => {
    const { client } = await createFixture(service);
    for (const body of [{}, { folder_color: "red" }]) {
      const issue = issueAt(expectIssues(await client.post("/api/v1/folders", body)), "folder_name");
      expect(issue.type).toBe("any.required");
    }
    const list = await client.get("/api/v1/folders");
    expect(list.body.data).toEqual([]);
  });

  it("rejects a body that is a JSON array (or another non-object) on create and update", async () => {
    const { client } = await createFixture(service);
    expectIssues(await client.post("/api/v1/videos", [{ video_name: "in an array" }]));
    expectIssues(await client.post("/api/v1/folders", []));
    expectIssues(await client.request("POST", "/api/v1/videos", { rawBody: '"a string"', headers: JSON_HEADERS }));
    expectIssues(await client.request("POST", "/api/v1/videos", { rawBody: "42", headers: JSON_HEADERS }));
    const video = await createVideo(client);
    expectIssues(await client.patch(`/api/v1/videos/${video.video_id}`, [{ video_name: "x" }]));
    expect(await videoCount(client)).toBe(1);
  });

  it("rejects a body of JSON null like any other non-object", async () => {
    const { client } = await createFixture(service);
    const response = await client.request("POST", "/api/v1/videos", { rawBody: "null", headers: JSON_HEADERS });
    expect(response.status, response.text).toBe(422);
    expect(response.body.error.code).toBe("validation_failed");
    expect(await videoCount(client)).toBe(0);
  });

  it("rejects folder_ids naming a folder of another workspace or no folder at all", async () => {
    const { client } = await createFixture(service);
    const other = await createFixture(service);
    const theirs = await other.client.post("/api/v1/folders", { folder_name: "Theirs" });
    expect(theirs.status).toBe(201);
    const mine = await client.post("/api/v1/folders", { folder_name: "Mine" });
    expect(mine.status).toBe(201);

    const foreign = expectIssues(await client.post("/api/v1/videos", { video_name: "x", folder_ids: [mine.body.folder_id, theirs.body.folder_id] }));
    expect(foreign.map((issue) => issue.path)).toEqual(["folder_ids.1"]);
    const missing = expectIssues(await client.post("/api/v1/videos", { video_name: "x", folder_ids: ["fld_doesnotexist0000000000"] }));
    expect(missing[0]!.path).toBe("folder_ids.0");
    expect(await videoCount(client)).toBe(0);

    // On update too, and the video keeps its folders.
    const video = await createVideo(client, { video_name: "Filed", folder_ids: [mine.body.folder_id] });
    expectIssues(await client.patch(`/api/v1/videos/${video.video_id}`, { folder_ids: [theirs.body.folder_id] }));
    expectIssues(await client.patch(`/api/v1/videos/${video.video_id}`, { folder_ids: ["fld_doesnotexist0000000000"] }));
    expect((await client.get(`/api/v1/videos/${video.video_id}`)).body.folder_ids).toEqual([mine.body.folder_id]);
    // The other workspace's folder holds nothing of ours.
    expect((await other.client.get(`/api/v1/folders/${theirs.body.folder_id}`)).status).toBe(200);
  });
});

describe("authentication and permission failures", () => {
  it("answers a missing or unknown key with 401 in the same envelope", async () => {
    const { client } = await createFixture(service);
    expectErrorEnvelope(await client.get("/api/v1/videos", { key: null }), "missing_credentials");
    expectErrorEnvelope(await client.get("/api/v1/videos", { key: "sk_live_notarealkeynotarealkey0000" }), "invalid_credentials");
  });

  it("answers a missing scope with 403 insufficient_scope and the scopes in details", async () => {
    const fixture = await createFixture(service, { scopes: ["videos:read"] });
    const error = expectErrorEnvelope(await fixture.client.post("/api/v1/videos", { video_name: "x" }), "insufficient_scope");
    expect(error.details.required_scopes).toContain("videos:write");
    expect(error.details.granted_scopes).toEqual(["videos:read"]);
  });

  it("answers another workspace's record with 403 workspace_mismatch on every verb", async () => {
    const { client } = await createFixture(service);
    const other = await createFixture(service);
    const theirs = await createVideo(other.client, { video_name: "Theirs" });
    const path = `/api/v1/videos/${theirs.video_id}`;
    expectErrorEnvelope(await client.get(path), "workspace_mismatch");
    expectErrorEnvelope(await client.patch(path, { video_name: "Mine now" }), "workspace_mismatch");
    expectErrorEnvelope(await client.delete(path), "workspace_mismatch");
    expect((await other.client.get(path)).body.video_name).toBe("Theirs");
  });
});

describe("X-Request-Id", () => {
  it("is on every success response and equals the body's request_id", async () => {
    const { client } = await createFixture(service);
    const created = await client.post("/api/v1/videos", { video_name: "Tracked" });
    const id = created.body.video_id as string;
    const responses = [
      created,
      await client.get(`/api/v1/videos/${id}`),
      await client.get(`/api/v1/videos/${id}?fields=video_name`),
      await client.get("/api/v1/videos"),
      await client.patch(`/api/v1/videos/${id}`, { video_comment: "c" }),
      await client.post(`/api/v1/videos/${id}`, { video_comment: "d" }),
      await client.post("/api/v1/folders", { folder_name: "F" }),
      await client.get("/api/v1/folders"),
      await client.get("/api/v1"),
      await client.delete(`/api/v1/videos/${id}`),
    ];
    const seen = new Set<string>();
    for (const response of responses) {
      expect(response.status, response.text).toBeLessThan(300);
      const header = response.headers.get("x-request-id");
      expect(header).toBeTruthy();
      expect(response.body.request_id).toBe(header);
      seen.add(header!);
    }
    expect(seen.size).toBe(responses.length);
  });

  it("is on GraphQL responses and in the extensions of their errors", async () => {
    const { client } = await createFixture(service);
    const ok = await client.graphql("{ videos { object } }");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-request-id")).toBeTruthy();
    const failed = await client.graphql('{ video(video_id: "vid_missing") { video_id } }');
    expect(failed.body.errors[0].extensions.request_id).toBe(failed.headers.get("x-request-id"));
  });
});

describe("GraphQL errors", () => {
  function expectGraphQLError(response: ApiResponse, code: string) {
    const spec = CONTRACT_CODES[code]!;
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const errors = response.body.errors as { message: string; extensions: Record<string, any> }[];
    expect(Array.isArray(errors)).toBe(true);
    const extensions = errors[0]!.extensions;
    expect(extensions).toMatchObject({
      code,
      type: spec.type,
      status: spec.status,
      retryable: spec.retryable,
      request_id: response.headers.get("x-request-id"),
    });
    expect(extensions.doc_url.endsWith(`/docs/api/errors#${code}`)).toBe(true);
    expect(errors[0]!.message).toBe(extensions.message);
    // Nothing came back, so the contract's failure marker is there too.
    expect(response.body.data ?? null).toBeNull();
    expect(response.body.error).toEqual(extensions);
    expectNoInternals(response.text, response.body);
    return extensions;
  }

  it("reports the REST 422 of create_video with an inline literal input in errors[0].extensions", async () => {
    const { client } = await createFixture(service);
    const response = await client.graphql('mutation { create_video(input: { video_nam: "Typo" }) { video_id } }');
    const extensions = expectGraphQLError(response, "validation_failed");
    const issue = extensions.details.issues[0];
    expect(issue).toMatchObject({ path: "video_nam", type: "object.unknown", did_you_mean: "video_name" });
    expect(issue.allowed).toContain("video_name");

    // The same payload over REST gives the same details.
    const rest = await client.post("/api/v1/videos", { video_nam: "Typo" });
    expect(rest.body.error.details).toEqual(extensions.details);
    expect((await client.graphql("{ videos(include_total: true) { total } }")).body.data.videos.total).toBe(0);
  });

  it("reports the 422 of create_video with variables, wrong types included", async () => {
    const { client } = await createFixture(service);
    const mutation = "mutation Create($input: VideoCreateInput!) { create_video(input: $input) { video_id } }";
    const unknown = expectGraphQLError(await client.graphql(mutation, { input: { videoName: "Camel" } }), "validation_failed");
    expect(unknown.details.issues[0]).toMatchObject({ path: "videoName", type: "object.unknown", did_you_mean: "video_name" });

    const types = expectGraphQLError(await client.graphql(mutation, { input: { video_format: "tall", published: "yes" } }), "validation_failed");
    const issues = types.details.issues as Issue[];
    expect(issueAt(issues, "video_format").type).toBe("any.only");
    expect(issueAt(issues, "published").type).toBe("boolean.base");

    const folder = expectGraphQLError(
      await client.graphql("mutation($input: FolderCreateInput!) { create_folder(input: $input) { folder_id } }", { input: {} }),
      "validation_failed",
    );
    expect(folder.details.issues[0]).toMatchObject({ path: "folder_name", type: "any.required" });
  });

  it("reports a syntax error as invalid_request", async () => {
    const { client } = await createFixture(service);
    for (const query of ["mutation { create_video(", "{ videos { data { video_id }", "query {"]) {
      expectGraphQLError(await client.graphql(query), "invalid_request");
    }
  });

  it("reports not_found and workspace_mismatch the way REST does", async () => {
    const { client } = await createFixture(service);
    const other = await createFixture(service);
    const theirs = await createVideo(other.client);
    expectGraphQLError(await client.graphql('{ video(video_id: "vid_missing") { video_id } }'), "not_found");
    expectGraphQLError(
      await client.graphql("query($id: ID!) { video(video_id: $id) { video_id } }", { id: theirs.video_id }),
      "workspace_mismatch",
    );
  });
});

describe("GET /api/v1/health", () => {
  it("answers 200 without a key, with the documented body", async () => {
    const { client } = await createFixture(service);
    const response = await client.get("/api/v1/health", { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const body = response.body;
    expect(body).toMatchObject({ object: "health", status: "ok" });
    expect(body.api_version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isNaN(Date.parse(body.api_version))).toBe(false);
    expect(body.checks.database.status).toBe("ok");
    expect(typeof body.checks.database.latency_ms).toBe("number");
    expect(body.checks.database.latency_ms).toBeGreaterThanOrEqual(0);
    expect(body.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(Math.abs(Date.parse(body.time) - Date.now())).toBeLessThan(60_000);
    expect(body.error).toBeUndefined();
  });

  it("says nothing about the key or workspace when called with one", async () => {
    const { client, workspaceId, keyId } = await createFixture(service);
    const response = await client.get("/api/v1/health");
    expect(response.status).toBe(200);
    expect(response.text).not.toContain(workspaceId);
    expect(response.text).not.toContain(keyId);
  });

  // CONTRACT GAP (rest/health.ts, healthBody): contract 4.1.5 says every response carries
  // X-Request-Id equal to the body's request_id, and 2.1.3 puts request_id in every
  // single-object success body; the health body has no request_id (section 4.6 lists its
  // fields without it). Fix: add request_id to the health body, or word 4.1.5/4.6 otherwise.
  it("carries request_id in the body, equal to X-Request-Id", async () => {
    const { client } = await createFixture(service);
    const response = await client.get("/api/v1/health", { key: null });
    expect(response.body.request_id).toBe(response.headers.get("x-request-id"));
  });
});
