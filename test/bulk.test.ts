// Bulk routes (contract 4.4, 5.6, 6, 7, 8; docs/lists.md "Bulk"): POST /api/v1/{resource}/bulk, on
// every resource with create, update or delete routes, runs up to 100 creates, updates and deletes,
// each through the resource's own route, and reports every item. Not a transaction: what succeeded stays applied. Checked over
// real HTTP against the real database, reading results back through GET and the outbox.
import { describe, expect, it } from "vitest";
import { createFixture, useService, type ApiResponse, type Client } from "./support/service.js";

const service = useService();

type Row = Record<string, any>;

const prisma = () => service.service.database.prisma;

interface BulkResource {
  name: "videos" | "folders" | "assets" | "characters";
  idField: string;
  idPattern: RegExp;
  kind: string;
  /** The field the tests name and rename records by. */
  nameField: string;
  record(name: string): Row;
  /** A create payload the resource's own route rejects with 422. */
  invalid: Row;
  /** Whether the resource has PATCH (assets do not). */
  updatable: boolean;
}

const RESOURCES: BulkResource[] = [
  {
    name: "videos", idField: "video_id", idPattern: /^vid_/, kind: "video", nameField: "video_name",
    record: (name) => ({ video_name: name, video_format: "portrait" }),
    invalid: { video_name: "bad", video_format: "round" },
    updatable: true,
  },
  {
    name: "folders", idField: "folder_id", idPattern: /^fld_/, kind: "folder", nameField: "folder_name",
    record: (name) => ({ folder_name: name }),
    invalid: { folder_name: "" },
    updatable: true,
  },
  {
    name: "assets", idField: "_id", idPattern: /^ast_/, kind: "asset", nameField: "provider_file_name",
    record: (name) => ({ provider_file_name: name, provider_file_url: `https://files.example.com/${encodeURIComponent(name)}.png` }),
    invalid: { provider_file_name: "no-url.png", provider_file_url: "not a url" },
    updatable: false,
  },
  {
    name: "characters", idField: "character_id", idPattern: /^chr_/, kind: "character", nameField: "character_name",
    record: (name) => ({ character_name: name }),
    invalid: { character_description: "no name" },
    updatable: true,
  },
];

const VIDEOS = RESOURCES[0]!;

async function create(client: Client, resource: BulkResource, name: string): Promise<string> {
  const response = await client.post(`/api/v1/${resource.name}`, resource.record(name));
  expect(response.status, response.text).toBe(201);
  return response.body[resource.idField] as string;
}

function bulk(client: Client, resource: string, body: unknown): Promise<ApiResponse> {
  return client.post(`/api/v1/${resource}/bulk`, body);
}

/** The bulk envelope every answer (200 or 207) carries. */
function expectBulkResult(response: ApiResponse, status: 200 | 207, counts: { succeeded: number; failed: number }): Row[] {
  expect(response.status, response.text).toBe(status);
  expect(response.body).toMatchObject({ object: "bulk_result", ...counts, livemode: true });
  expect(response.body.error).toBeUndefined();
  expect(response.body.request_id).toBe(response.headers.get("x-request-id"));
  const data = response.body.data as Row[];
  expect(data).toHaveLength(counts.succeeded + counts.failed);
  expect(data.map((item) => item.index)).toEqual(data.map((_, index) => index));
  for (const item of data) expect(Object.keys(item).sort()).toEqual(["error", "id", "index", "operation", "status"]);
  return data;
}

function expectError(response: ApiResponse, status: number, code: string): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error, response.text).toMatchObject({ code, status, request_id: response.headers.get("x-request-id") });
  expect(response.body.object).toBeUndefined();
  return response.body.error as Row;
}

async function count(client: Client, resource: string): Promise<number> {
  const response = await client.get(`/api/v1/${resource}?include_total=true&limit=1`);
  expect(response.status, response.text).toBe(200);
  return response.body.total as number;
}

async function outbox(workspaceId: string) {
  return prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId }, orderBy: { seq: "asc" } });
}

describe.each(RESOURCES)("POST /api/v1/$name/bulk", (resource) => {
  it("answers 200 with one successful item per operation, creates then updates then deletes, all applied", async () => {
    const { client } = await createFixture(service);
    const toUpdate = await create(client, resource, "before");
    const toDelete = await create(client, resource, "doomed");

    // Body keys in reverse order: items still run creates, then updates, then deletes.
    const body: Row = {
      delete: [toDelete],
      ...(resource.updatable && { update: [{ id: toUpdate, data: { [resource.nameField]: "after" } }] }),
      create: [resource.record("first"), resource.record("second")],
    };
    const response = await bulk(client, resource.name, body);
    const items = resource.updatable ? 4 : 3;
    const data = expectBulkResult(response, 200, { succeeded: items, failed: 0 });

    const [first, second] = data;
    expect(first).toMatchObject({ index: 0, operation: "create", status: 201, error: null });
    expect(second).toMatchObject({ index: 1, operation: "create", status: 201, error: null });
    expect(first!.id).toMatch(resource.idPattern);
    expect(second!.id).toMatch(resource.idPattern);
    expect(first!.id).not.toBe(second!.id);
    if (resource.updatable) {
      expect(data[2]).toEqual({ index: 2, operation: "update", status: 200, id: toUpdate, error: null });
      expect(data[3]).toEqual({ index: 3, operation: "delete", status: 200, id: toDelete, error: null });
    } else {
      expect(data[2]).toEqual({ index: 2, operation: "delete", status: 200, id: toDelete, error: null });
    }

    // Read back through the single-record routes.
    for (const [id, name] of [[first!.id, "first"], [second!.id, "second"]] as const) {
      const got = await client.get(`/api/v1/${resource.name}/${id}`);
      expect(got.status, got.text).toBe(200);
      expect(got.body).toMatchObject({ object: resource.kind, [resource.idField]: id, [resource.nameField]: name });
    }
    const updated = await client.get(`/api/v1/${resource.name}/${toUpdate}`);
    expect(updated.body[resource.nameField]).toBe(resource.updatable ? "after" : "before");
    expectError(await client.get(`/api/v1/${resource.name}/${toDelete}`), 404, "not_found");
    expect(await count(client, resource.name)).toBe(3);
  });

  it("answers 207 when an item fails, reporting its error envelope and keeping the successful items applied", async () => {
    const { client } = await createFixture(service);
    const existing = await create(client, resource, "existing");
    const toDelete = await create(client, resource, "doomed");
    const missing = `${resource.idPattern.source.slice(1)}doesNotExist000000000`;

    const response = await bulk(client, resource.name, {
      create: [resource.record("kept"), resource.invalid],
      update: [{ id: resource.updatable ? missing : existing, data: { [resource.nameField]: "renamed" } }],
      delete: [toDelete, missing],
    });
    const data = expectBulkResult(response, 207, { succeeded: 2, failed: 3 });

    expect(data[0]).toMatchObject({ operation: "create", status: 201, error: null });
    const kept = data[0]!.id as string;

    // The invalid create fails exactly as POST /{resource} would: 422 with the issues.
    expect(data[1]).toMatchObject({ index: 1, operation: "create", status: 422, id: null });
    expect(data[1]!.error).toMatchObject({ type: "validation_error", code: "validation_failed", status: 422 });
    expect(data[1]!.error.details.issues.length).toBeGreaterThan(0);
    expect(typeof data[1]!.error.message).toBe("string");

    if (resource.updatable) {
      expect(data[2]).toMatchObject({ index: 2, operation: "update", status: 404, id: missing });
      expect(data[2]!.error).toMatchObject({ type: "not_found_error", code: "not_found", status: 404 });
    } else {
      // Assets have no PATCH: the update item alone fails with 405, like PATCH /assets/{id}.
      expect(data[2]).toMatchObject({ index: 2, operation: "update", status: 405, id: existing });
      expect(data[2]!.error).toMatchObject({ type: "invalid_request_error", code: "method_not_allowed", status: 405 });
      expect(data[2]!.error.details.allowed_methods).not.toContain("PATCH");
    }
    expect(data[3]).toEqual({ index: 3, operation: "delete", status: 200, id: toDelete, error: null });
    expect(data[4]).toMatchObject({ index: 4, operation: "delete", status: 404, id: missing });
    expect(data[4]!.error).toMatchObject({ type: "not_found_error", code: "not_found" });

    // Not a transaction: the successful create and delete stayed applied.
    expect((await client.get(`/api/v1/${resource.name}/${kept}`)).body).toMatchObject({ [resource.nameField]: "kept" });
    expectError(await client.get(`/api/v1/${resource.name}/${toDelete}`), 404, "not_found");
    expect((await client.get(`/api/v1/${resource.name}/${existing}`)).body[resource.nameField]).toBe("existing");
    expect(await count(client, resource.name)).toBe(2);
  });

  it("fails an update or delete of another workspace's record with 403 workspace_mismatch, leaving it untouched", async () => {
    const { client } = await createFixture(service);
    const other = await createFixture(service);
    const theirs = await create(other.client, resource, "theirs");
    const mine = await create(client, resource, "mine");

    const response = await bulk(client, resource.name, {
      ...(resource.updatable && { update: [{ id: theirs, data: { [resource.nameField]: "hijacked" } }] }),
      delete: [theirs, mine],
    });
    const data = expectBulkResult(response, 207, { succeeded: 1, failed: resource.updatable ? 2 : 1 });
    const foreign = data.filter((item) => item.id === theirs);
    expect(foreign.length).toBe(resource.updatable ? 2 : 1);
    for (const item of foreign) {
      expect(item.status).toBe(403);
      expect(item.error).toMatchObject({ type: "permission_error", code: "workspace_mismatch", status: 403 });
    }
    expect(data.at(-1)).toEqual({ index: data.length - 1, operation: "delete", status: 200, id: mine, error: null });

    const still = await other.client.get(`/api/v1/${resource.name}/${theirs}`);
    expect(still.status, still.text).toBe(200);
    expect(still.body[resource.nameField]).toBe("theirs");
  });
});

describe("item limit", () => {
  it("accepts exactly 100 items", async () => {
    const { client } = await createFixture(service);
    const create = Array.from({ length: 100 }, (_, index) => ({ folder_name: `Folder ${index}` }));
    const response = await bulk(client, "folders", { create });
    const data = expectBulkResult(response, 200, { succeeded: 100, failed: 0 });
    expect(new Set(data.map((item) => item.id)).size).toBe(100);
    expect(await count(client, "folders")).toBe(100);
  });

  it("rejects 101 items, counted across create, update and delete, with 413 payload_too_large and applies none", async () => {
    const { client } = await createFixture(service);
    const existing = [await create(client, VIDEOS, "one"), await create(client, VIDEOS, "two")];

    const response = await bulk(client, "videos", {
      create: Array.from({ length: 97 }, (_, index) => ({ video_name: `New ${index}` })),
      update: [{ id: existing[0], data: { video_name: "changed" } }, { id: existing[1], data: { video_name: "changed" } }],
      delete: existing,
    });
    const error = expectError(response, 413, "payload_too_large");
    expect(error.type).toBe("invalid_request_error");

    expect(await count(client, "videos")).toBe(2);
    for (const id of existing) expect((await client.get(`/api/v1/videos/${id}`)).body.video_name).not.toBe("changed");
  });
});

describe("request body", () => {
  it("rejects an empty body or a body without items with 400 invalid_request", async () => {
    const { client } = await createFixture(service);
    expectError(await client.request("POST", "/api/v1/videos/bulk"), 400, "invalid_request");
    for (const body of [{}, { create: [] }, { create: [], update: [], delete: [] }]) {
      const error = expectError(await bulk(client, "videos", body), 400, "invalid_request");
      expect(error.type).toBe("invalid_request_error");
    }
    expect(await count(client, "videos")).toBe(0);
  });

  it("rejects an unknown top-level key with 422 validation_failed naming it, and applies nothing", async () => {
    const { client } = await createFixture(service);
    const response = await bulk(client, "videos", { create: [{ video_name: "would be created" }], upsert: [{ video_name: "x" }] });
    const error = expectError(response, 422, "validation_failed");
    expect(error.details.issues).toEqual([expect.objectContaining({ path: "upsert", type: "object.unknown" })]);
    expect(await count(client, "videos")).toBe(0);
  });

  it("rejects a malformed update item with 422 and applies nothing", async () => {
    const { client } = await createFixture(service);
    const id = await create(client, VIDEOS, "original");
    const response = await bulk(client, "videos", { create: [{ video_name: "would be created" }], update: [{ id, changes: { video_name: "x" } }] });
    expectError(response, 422, "validation_failed");
    expect(await count(client, "videos")).toBe(1);
  });

  it("answers invalid JSON with 400 invalid_json", async () => {
    const { client } = await createFixture(service);
    const response = await client.request("POST", "/api/v1/videos/bulk", { rawBody: "{create: [", headers: { "content-type": "application/json" } });
    expectError(response, 400, "invalid_json");
  });

  it("rejects a null create item like POST /{resource} does (422), creating nothing", async () => {
    const { client } = await createFixture(service);
    const single = await client.request("POST", "/api/v1/videos", { rawBody: "null", headers: { "content-type": "application/json" } });
    expectError(single, 422, "validation_failed");

    const response = await bulk(client, "videos", { create: [null, "text"] });
    const data = expectBulkResult(response, 207, { succeeded: 0, failed: 2 });
    for (const item of data) expect(item).toMatchObject({ status: 422, id: null, error: { code: "validation_failed" } });
    expect(await count(client, "videos")).toBe(0);
  });
});

describe("scopes", () => {
  it("needs both <group>:write and <group>:delete: 403 insufficient_scope listing both, and nothing applied", async () => {
    const fixture = await createFixture(service);
    const existing = await create(fixture.client, VIDEOS, "keep me");
    const writer = await fixture.newKey({ scopes: ["videos:read", "videos:write"] });

    // Even a create-only bulk call needs the delete scope.
    for (const body of [{ create: [{ video_name: "nope" }] }, { delete: [existing] }]) {
      const error = expectError(await bulk(writer.client, "videos", body), 403, "insufficient_scope");
      expect(error.type).toBe("permission_error");
      expect(error.details.required_scopes).toEqual(expect.arrayContaining(["videos:write", "videos:delete"]));
      expect(error.details.required_scopes).toHaveLength(2);
      expect(error.details.granted_scopes).toEqual(expect.arrayContaining(["videos:read", "videos:write"]));
    }
    const deleter = await fixture.newKey({ scopes: ["videos:read", "videos:delete"] });
    expect(expectError(await bulk(deleter.client, "videos", { delete: [existing] }), 403, "insufficient_scope").details.required_scopes)
      .toEqual(expect.arrayContaining(["videos:write", "videos:delete"]));
    // Another group's scopes do not count.
    const folders = await fixture.newKey({ scopes: ["folders:*"] });
    expectError(await bulk(folders.client, "videos", { create: [{ video_name: "nope" }] }), 403, "insufficient_scope");

    expect(await count(fixture.client, "videos")).toBe(1);
    expect((await fixture.client.get(`/api/v1/videos/${existing}`)).status).toBe(200);

    // A wildcard covering both is enough.
    const wildcard = await fixture.newKey({ scopes: ["videos:*"] });
    expectBulkResult(await bulk(wildcard.client, "videos", { create: [{ video_name: "ok" }] }), 200, { succeeded: 1, failed: 0 });
  });
});

describe("test mode", () => {
  it("reports each item as if it ran, with livemode false, and persists nothing", async () => {
    const live = await createFixture(service);
    const toUpdate = await create(live.client, VIDEOS, "original");
    const toDelete = await create(live.client, VIDEOS, "survivor");
    const eventsBefore = await outbox(live.workspaceId);
    const { client: test } = await live.newKey({ mode: "test", scopes: ["*:*"] });

    const response = await bulk(test, "videos", {
      create: [{ video_name: "simulated" }],
      update: [{ id: toUpdate, data: { video_name: "simulated rename" } }],
      delete: [toDelete],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get("x-test-mode")).toBe("true");
    expect(response.body).toMatchObject({ object: "bulk_result", succeeded: 3, failed: 0, livemode: false });
    const data = response.body.data as Row[];
    expect(data.map((item) => [item.operation, item.status, item.error])).toEqual([["create", 201, null], ["update", 200, null], ["delete", 200, null]]);
    expect(data[0]!.id).toMatch(/^vid_/);

    // Nothing persisted: the simulated id names no record, the others are unchanged.
    expectError(await live.client.get(`/api/v1/videos/${data[0]!.id}`), 404, "not_found");
    expect((await live.client.get(`/api/v1/videos/${toUpdate}`)).body.video_name).toBe("original");
    expect((await live.client.get(`/api/v1/videos/${toDelete}`)).body.video_name).toBe("survivor");
    expect(await count(live.client, "videos")).toBe(2);
    expect(await outbox(live.workspaceId)).toEqual(eventsBefore);
  });

  it("still reports failing items, and still enforces the bulk scopes", async () => {
    const live = await createFixture(service);
    const { client: test } = await live.newKey({ mode: "test", scopes: ["*:*"] });
    const response = await bulk(test, "folders", { create: [{ folder_name: "ok" }, { folder_name: "" }] });
    expect(response.status, response.text).toBe(207);
    expect(response.body).toMatchObject({ succeeded: 1, failed: 1, livemode: false });
    expect(response.body.data[1].error).toMatchObject({ code: "validation_failed", livemode: false });

    const { client: narrow } = await live.newKey({ mode: "test", scopes: ["folders:write"] });
    const denied = expectError(await bulk(narrow, "folders", { create: [{ folder_name: "x" }] }), 403, "insufficient_scope");
    expect(denied.livemode).toBe(false);
    expect(await count(live.client, "folders")).toBe(0);
  });
});

describe("record events", () => {
  it("writes each successful item's event to the outbox, in item order, and none for failed items", async () => {
    const { client, workspaceId } = await createFixture(service);
    const other = await createFixture(service);
    const theirs = await create(other.client, VIDEOS, "theirs");
    const toUpdate = await create(client, VIDEOS, "to update");
    const toDelete = await create(client, VIDEOS, "to delete");
    const before = (await outbox(workspaceId)).length;
    const otherBefore = (await outbox(other.workspaceId)).length;

    const response = await bulk(client, "videos", {
      create: [
        { video_name: "created" },
        { video_name: "invalid", video_format: "round" },
        // Passes validation, then fails inside its write transaction (no such folder).
        { video_name: "bad folder", folder_ids: ["fld_doesNotExist00000000000"] },
      ],
      update: [{ id: toUpdate, data: { video_name: "updated" } }, { id: "vid_doesNotExist00000000000", data: { video_name: "x" } }],
      delete: [theirs, toDelete],
    });
    const data = expectBulkResult(response, 207, { succeeded: 3, failed: 4 });
    expect(data.map((item) => item.status)).toEqual([201, 422, 422, 200, 404, 403, 200]);

    const events = (await outbox(workspaceId)).slice(before);
    expect(events.map((event) => [event.type, (event.data as Row).object.video_id])).toEqual([
      ["video.created", data[0]!.id],
      ["video.updated", toUpdate],
      ["video.deleted", toDelete],
    ]);
    for (const event of events) {
      expect(event).toMatchObject({ workspace_id: workspaceId, livemode: true, request_id: response.headers.get("x-request-id") });
    }
    expect((events[1]!.data as Row).object.video_name).toBe("updated");
    expect((events[2]!.data as Row).object.video_name).toBe("to delete");
    // The failed create left no video behind, and the other workspace got no event.
    expect(await count(client, "videos")).toBe(2);
    expect((await outbox(other.workspaceId)).length).toBe(otherBefore);
  });

  it("writes folder, character and asset events of their own kinds", async () => {
    const { client, workspaceId } = await createFixture(service);
    for (const resource of RESOURCES.slice(1)) {
      const existing = await create(client, resource, "existing");
      const response = await bulk(client, resource.name, {
        create: [resource.record("new")],
        ...(resource.updatable && { update: [{ id: existing, data: { [resource.nameField]: "renamed" } }] }),
        delete: [existing],
      });
      expect(response.status, response.text).toBe(200);
      const events = await prisma().outboxEvent.findMany({ where: { request_id: response.headers.get("x-request-id")! }, orderBy: { seq: "asc" } });
      expect(events.map((event) => event.type)).toEqual(
        resource.updatable ? [`${resource.kind}.created`, `${resource.kind}.updated`, `${resource.kind}.deleted`] : [`${resource.kind}.created`, `${resource.kind}.deleted`],
      );
      expect(events.every((event) => event.workspace_id === workspaceId)).toBe(true);
    }
  });
});

describe("routing", () => {
  it("answers GET, PATCH and DELETE on /videos/bulk with 405 and Allow: POST", async () => {
    const { client } = await createFixture(service);
    for (const method of ["GET", "PATCH", "DELETE", "PUT"]) {
      const response = await client.request(method, "/api/v1/videos/bulk");
      const error = expectError(response, 405, "method_not_allowed");
      expect(error.type).toBe("invalid_request_error");
      expect(response.headers.get("allow")).toBe("POST");
    }
  });

  it("offers bulk on every resource with create, update or delete routes, and none on read-only ones", async () => {
    const { client } = await createFixture(service);
    // /templates/bulk was a 405 before: every writable resource of table 2.2 takes bulk calls now.
    for (const resource of ["templates", "video_styles", "smart_group_configs", "custom_video_types", "agents", "flows", "slideshows", "scheduled_posts", "character_tags", "playground_generations"]) {
      const response = await bulk(client, resource, { delete: ["missing_id"] });
      const [item] = expectBulkResult(response, 207, { succeeded: 0, failed: 1 });
      expect(item!.status, resource).toBe(404);
    }
    for (const resource of ["renders", "scripts", "generations", "voices", "credit_transactions"]) {
      const response = await bulk(client, resource, { create: [{}] });
      expect([404, 405], `${resource}: ${response.text}`).toContain(response.status);
      expect(response.body.error.code).toBe(response.status === 404 ? "not_found" : "method_not_allowed");
      expect(response.body.object).toBeUndefined();
    }
    // renders is read-only: POST /renders/bulk is the (read-only) member route, so 405.
    const renders = await bulk(client, "renders", { create: [{}] });
    expectError(renders, 405, "method_not_allowed");
    expect(renders.headers.get("allow")).not.toContain("POST");
  });

  it("runs templates through their own routes, under the templates group's write and delete scopes", async () => {
    const fixture = await createFixture(service);
    const kept = (await fixture.client.post("/api/v1/templates", { name: "Kept" })).body.template_id as string;
    const gone = (await fixture.client.post("/api/v1/templates", { name: "Gone" })).body.template_id as string;
    const data = expectBulkResult(
      await bulk(fixture.client, "templates", { create: [{ name: "New" }], update: [{ id: kept, data: { name: "Renamed" } }], delete: [gone] }),
      200,
      { succeeded: 3, failed: 0 },
    );
    expect(data.map((item) => [item.operation, item.status])).toEqual([["create", 201], ["update", 200], ["delete", 200]]);
    expect((await fixture.client.get(`/api/v1/templates/${kept}`)).body.name).toBe("Renamed");
    expect((await fixture.client.get(`/api/v1/templates/${gone}`)).status).toBe(404);
    expect(await count(fixture.client, "templates")).toBe(2);

    const writer = await fixture.newKey({ scopes: ["templates:read", "templates:write"] });
    const error = expectError(await bulk(writer.client, "templates", { create: [{ name: "No" }] }), 403, "insufficient_scope");
    expect(error.details.required_scopes).toEqual(expect.arrayContaining(["templates:write", "templates:delete"]));
    expect(await count(fixture.client, "templates")).toBe(2);
  });

  it("reports a create item on a resource without create (playground_generations) as that item's 405", async () => {
    const fixture = await createFixture(service);
    const data = expectBulkResult(await bulk(fixture.client, "playground_generations", { create: [{ prompt: "x" }] }), 207, { succeeded: 0, failed: 1 });
    expect(data[0]).toMatchObject({ operation: "create", status: 405, error: { code: "method_not_allowed" } });
  });

  it("takes no query parameters", async () => {
    const { client } = await createFixture(service);
    const response = await client.post("/api/v1/videos/bulk?dry_run=true", { create: [{ video_name: "x" }] });
    expect(expectError(response, 400, "invalid_request").param).toBe("dry_run");
    expect(await count(client, "videos")).toBe(0);
  });
});
