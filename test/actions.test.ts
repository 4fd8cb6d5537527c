// The action framework (contract document 2, 4.1; docs/actions.md): an action is live once a
// handler is registered (src/actions/framework/handler.ts). Every live action gets its REST route
// /api/v1/actions/{name} with the catalog's method and one GraphQL field; declared actions without
// a handler answer 404 "not available". Calls run through src/actions/framework/runner.ts:
// validation, scopes (all listed ones), one transaction with the work and action.completed, and
// action.failed for a failure. Real HTTP against the suite's PostgreSQL and Redis, a fresh
// workspace per test.
import { describe, expect, it } from "vitest";
import type { GraphQLObjectType } from "graphql";
import { actionByName, allActions } from "../src/actions/catalog.js";
import { getSchema } from "../src/platform/schema.js";
import { addCredits } from "../src/credits/ledger.js";
import { newId } from "../src/ids.js";
import { createFixture, useService, type ApiResponse, type Client } from "./support/service.js";

const service = useService();
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;

/** The actions the framework shipped with; others may be added, these must stay live. */
const liveActionNames = () => allActions().map((action) => action.name);

const SHIPPED_LIVE = [
  "renders.create", "renders.list", "renders.delete",
  "videos.create", "videos.update",
  "account.credits", "account.limits", "account.credit_history",
];

const callAction = (client: Client, name: string, body: unknown = {}) => client.post(`/api/v1/actions/${name}`, body);
const getAction = (client: Client, name: string, query = "") => client.get(`/api/v1/actions/${name}${query}`);

const grant = (workspaceId: string, amount: number) =>
  prisma().$transaction((tx) => addCredits(tx, { workspaceId, amount, actionType: "grant", description: "test grant" }));

const outbox = (workspaceId: string) => prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId }, orderBy: { seq: "asc" } });

function expectError(response: ApiResponse, status: number, code: string): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body?.error, response.text).toMatchObject({ code, status });
  expect(response.body.error.request_id).toBe(response.headers.get("x-request-id"));
  return response.body.error as Row;
}

function expectOk(response: ApiResponse, status = 200): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body?.error, response.text).toBeUndefined();
  return response.body as Row;
}

/** The issues of a 422 without their messages (which are not stable). */
const issueShapes = (error: Row) => (error.details.issues as Row[]).map(({ message: _message, ...issue }) => issue);

// ---------------------------------------------------------------------------------------------

describe("live actions: routes, methods and GraphQL fields", () => {
  it("routes every live action with its method and exposes it in the schema; the rest of the catalog is not live", async () => {
    const live = liveActionNames();
    expect(allActions()).toHaveLength(151);
    expect(new Set(live).size).toBe(live.length);
    for (const name of live) expect(actionByName(name), `${name} is a live action outside the catalog`).toBeDefined();
    expect(live).toEqual(expect.arrayContaining(SHIPPED_LIVE));
    // Every action of the contract is live: none is left declared only.
    expect(allActions().filter((action) => !live.includes(action.name)).map((action) => action.name)).toEqual([]);
    expect(live).toHaveLength(151);

    const schema = getSchema();
    const fieldsOf = (type: GraphQLObjectType | null | undefined) => type?.getFields() ?? {};
    const queries = fieldsOf(schema.getQueryType());
    const mutations = fieldsOf(schema.getMutationType());
    for (const action of allActions()) {
      const field = action.name.replace(".", "_");
      const isLive = live.includes(action.name);
      const [own, other] = action.method === "GET" ? [queries, mutations] : [mutations, queries];
      expect(Boolean(own[field]), `${field} in ${action.method === "GET" ? "Query" : "Mutation"}`).toBe(isLive);
      expect(other[field], `${field} on the other root type`).toBeUndefined();
      if (isLive) expect(own[field]!.args.map((arg) => arg.name)).toEqual(["input"]);
    }

    // A key holding none of the actions' scopes: the right verb reaches the action's scope check
    // (so nothing runs), the wrong verb is a 405 naming the right one.
    const { client } = await createFixture(service, { scopes: ["webhooks:read"] });
    for (const name of live) {
      const action = actionByName(name)!;
      const right = action.method === "GET" ? await getAction(client, name) : await callAction(client, name);
      const error = expectError(right, 403, "insufficient_scope");
      expect(error.details.required_scopes, name).toEqual([...action.scopes]);
      expect(error.details.granted_scopes).toEqual(["webhooks:read"]);

      const wrong = action.method === "GET" ? await callAction(client, name) : await getAction(client, name);
      expectError(wrong, 405, "method_not_allowed");
      const allow = wrong.headers.get("allow")!.split(", ");
      expect(allow, name).toContain(action.method);
      expect(allow).not.toContain(action.method === "GET" ? "POST" : "GET");
    }
  });

  it("answers 404 for a well-formed action name the catalog does not declare, and GraphQL has no field for it", async () => {
    const { client } = await createFixture(service);
    const name = "timeline.hydrate_nothing_at_all";
    expect(actionByName(name)).toBeUndefined();
    const error = expectError(await callAction(client, name, {}), 404, "not_found");
    expect(error.message).toContain(name);
    expect(error.details).toMatchObject({ action: name });
    const graphql = await client.graphql(`mutation { ${name.replace(".", "_")}(input: {}) { object } }`);
    expect(graphql.body.errors?.length, graphql.text).toBeGreaterThan(0);
  });

  it("answers 404 with did_you_mean for an unknown action", async () => {
    const { client } = await createFixture(service);
    const error = expectError(await callAction(client, "images.generat"), 404, "not_found");
    expect(error.message).toContain("images.generat");
    expect(error.details).toMatchObject({ action: "images.generat", did_you_mean: "images.generate" });
  });
});

describe("input", () => {
  it("rejects an unknown body field with 422, listing the action's fields in allowed", async () => {
    const { client, workspaceId } = await createFixture(service);
    const error = expectError(await callAction(client, "renders.create", { video_id: "vid_x", video_formt: "landscape" }), 422, "validation_failed");
    expect(error.type).toBe("validation_error");
    expect(error.details.issues[0]).toMatchObject({
      path: "video_formt",
      type: "object.unknown",
      allowed: ["video_id", "video_type_id", "video_format", "merge", "output"],
      did_you_mean: "video_format",
    });
    // Refused before any work: no render and nothing spent.
    expect(await prisma().render.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });

  it("rejects an unknown query parameter of a GET action the same way", async () => {
    const { client } = await createFixture(service);
    const error = expectError(await getAction(client, "account.credit_history", "?foo=1"), 422, "validation_failed");
    expect(error.details.issues[0]).toMatchObject({ path: "foo", type: "object.unknown", allowed: ["page", "limit"] });
    // An action without input fields accepts none.
    const none = expectError(await getAction(client, "account.credits", "?foo=1"), 422, "validation_failed");
    expect(none.details.issues[0]).toMatchObject({ path: "foo", type: "object.unknown", allowed: [] });
  });

  it("decodes GET query parameters by their field's type", async () => {
    const { client, workspaceId } = await createFixture(service);
    for (const amount of [1, 2, 3]) await grant(workspaceId, amount);
    const body = expectOk(await getAction(client, "account.credit_history", "?limit=2&page=1"));
    expect(body).toMatchObject({ object: "list", page: 1, limit: 2, has_more: true });
    expect(body.data).toHaveLength(2);
    // Out-of-range and non-numeric values are refused, not 500s; `limit` by the one rule of every list.
    for (const limit of ["0", "101", "abc", "2.5"]) {
      const refused = expectError(await getAction(client, "account.credit_history", `?limit=${limit}`), 422, "validation_failed");
      expect(refused).toMatchObject({ param: "limit", message: "limit must be an integer from 1 to 100." });
    }
    const text = expectError(await getAction(client, "account.credit_history", "?page=first"), 422, "validation_failed");
    expect(text.details.issues[0].path).toBe("page");
  });
});

describe("scopes", () => {
  it("needs every listed scope: renders.create with only renders:write (or only renders:execute) is 403", async () => {
    const fixture = await createFixture(service, { scopes: ["renders:write"] });
    const error = expectError(await callAction(fixture.client, "renders.create", { video_id: "vid_x" }), 403, "insufficient_scope");
    expect(error.details.required_scopes).toEqual(["renders:execute", "renders:write"]);
    expect(error.details.granted_scopes).toEqual(["renders:write"]);
    expect(error.message).toContain("renders:execute");

    const executeOnly = await fixture.newKey({ scopes: ["renders:execute"] });
    const other = expectError(await callAction(executeOnly.client, "renders.create", { video_id: "vid_x" }), 403, "insufficient_scope");
    expect(other.details.required_scopes).toEqual(["renders:execute", "renders:write"]);

    // Refused before pricing: nothing was spent and no credits.low was written.
    expect((await outbox(fixture.workspaceId)).map((event) => event.type)).not.toContain("credits.low");
    expect((await outbox(fixture.workspaceId)).map((event) => event.type)).not.toContain("action.completed");

    // Both scopes: the call passes the scope check and reaches the action (an unknown video).
    await grant(fixture.workspaceId, 10);
    const both = await fixture.newKey({ scopes: ["renders:execute", "renders:write"] });
    expectError(await callAction(both.client, "renders.create", { video_id: "vid_nosuchvideo" }), 404, "not_found");
  });

  it("a call refused for a missing scope records action.failed with insufficient_scope", async () => {
    const fixture = await createFixture(service, { scopes: ["renders:write"] });
    const error = expectError(await callAction(fixture.client, "renders.create", { video_id: "vid_x" }), 403, "insufficient_scope");
    const events = await outbox(fixture.workspaceId);
    expect(events.map((event) => event.type)).toEqual(["action.failed"]);
    expect(events[0]!.request_id).toBe(error.request_id);
    expect((events[0]!.data as Row).object).toMatchObject({ action: "renders.create", key_id: fixture.keyId, error: { code: "insufficient_scope", status: 403 } });
  });

  it("write never implies execute, not even through wildcards", async () => {
    const fixture = await createFixture(service, { scopes: ["*:write", "*:read", "*:delete"] });
    const error = expectError(await callAction(fixture.client, "renders.create", { video_id: "vid_x" }), 403, "insufficient_scope");
    expect(error.details.required_scopes).toEqual(["renders:execute", "renders:write"]);
    // The same key runs the actions that need only write.
    expect(expectOk(await callAction(fixture.client, "videos.create", { video_name: "writer" }))).toMatchObject({ object: "video" });
    // renders:* covers execute.
    await grant(fixture.workspaceId, 10);
    const group = await fixture.newKey({ scopes: ["renders:*"] });
    expectError(await callAction(group.client, "renders.create", { video_id: "vid_nosuchvideo" }), 404, "not_found");
  });
});

describe("videos.create and videos.update", () => {
  it("validate exactly like POST /api/v1/videos (unknown field: 422 with did_you_mean)", async () => {
    const { client, workspaceId } = await createFixture(service);
    const payload = { video_name: "typo", video_formt: "landscape" };
    const viaAction = expectError(await callAction(client, "videos.create", payload), 422, "validation_failed");
    const viaRest = expectError(await client.post("/api/v1/videos", payload), 422, "validation_failed");
    expect(issueShapes(viaAction)).toEqual(issueShapes(viaRest));
    expect(viaAction.details.issues[0]).toMatchObject({ path: "video_formt", type: "object.unknown", did_you_mean: "video_format" });
    expect(viaAction.param).toBe(viaRest.param);

    // A bad value too.
    const badValue = { video_name: "bad", video_format: "diagonal" };
    const actionValue = expectError(await callAction(client, "videos.create", badValue), 422, "validation_failed");
    const restValue = expectError(await client.post("/api/v1/videos", badValue), 422, "validation_failed");
    expect(issueShapes(actionValue)).toEqual(issueShapes(restValue));
    expect(await prisma().video.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });

  it("videos.create writes the video with video.created and action.completed in the outbox", async () => {
    const { client, workspaceId, keyId } = await createFixture(service);
    const created = expectOk(await callAction(client, "videos.create", { video_name: "From the action", video_format: "portrait" }));
    expect(created).toMatchObject({ object: "video", video_name: "From the action", video_format: "portrait", livemode: true });
    expect(created.video_id).toMatch(/^vid_/);
    expect(created).not.toHaveProperty("credits"); // a free action
    // The same record as REST reads it.
    const read = expectOk(await client.get(`/api/v1/videos/${created.video_id}`));
    expect(read).toMatchObject({ video_id: created.video_id, video_name: "From the action" });

    // The same fields as a video created by POST /api/v1/videos.
    const viaRest = expectOk(await client.post("/api/v1/videos", { video_name: "From REST" }), 201);
    expect(Object.keys(created).sort()).toEqual(Object.keys(viaRest).sort());

    const events = (await outbox(workspaceId)).filter((event) => (event.data as Row).object?.video_name !== "From REST");
    expect(events.map((event) => event.type)).toEqual(["video.created", "action.completed"]);
    expect((events[0]!.data as Row).object).toMatchObject({ video_id: created.video_id, video_name: "From the action" });
    expect((events[1]!.data as Row).object).toMatchObject({
      object: "action_call", action: "videos.create", key_id: keyId, livemode: true, credits_spent: 0, result_object: "video",
    });
    expect(events[1]!.request_id).toBe(created.request_id);
    expect(events[0]!.request_id).toBe(created.request_id);
  });

  it("videos.update changes the video with video.updated and action.completed; without video_id it is 422 any.required", async () => {
    const { client, workspaceId } = await createFixture(service);
    const { video_id: videoId } = expectOk(await client.post("/api/v1/videos", { video_name: "before" }), 201);
    const updated = expectOk(await callAction(client, "videos.update", { video_id: videoId, video_name: "after" }));
    expect(updated).toMatchObject({ object: "video", video_id: videoId, video_name: "after" });
    expect((await prisma().video.findUniqueOrThrow({ where: { video_id: videoId } })).video_name).toBe("after");

    const types = (await outbox(workspaceId)).map((event) => event.type);
    expect(types).toEqual(["video.created", "video.updated", "action.completed"]);

    const missing = expectError(await callAction(client, "videos.update", { video_name: "nameless" }), 422, "validation_failed");
    expect(missing.details.issues[0]).toMatchObject({ path: "video_id", type: "any.required" });
    // An unknown field is refused like PATCH /videos/{id} refuses it.
    const viaAction = expectError(await callAction(client, "videos.update", { video_id: videoId, video_nmae: "x" }), 422, "validation_failed");
    const viaRest = expectError(await client.patch(`/api/v1/videos/${videoId}`, { video_nmae: "x" }), 422, "validation_failed");
    expect(issueShapes(viaAction)).toEqual(issueShapes(viaRest));
    expect(viaAction.details.issues[0]).toMatchObject({ path: "video_nmae", did_you_mean: "video_name" });
  });

  it("videos.update of another workspace's video is 403 workspace_mismatch, as PATCH is; the failure records action.failed and no action.completed", async () => {
    const owner = await createFixture(service);
    const intruder = await createFixture(service);
    const { video_id: videoId } = expectOk(await owner.client.post("/api/v1/videos", { video_name: "mine" }), 201);

    const viaAction = expectError(await callAction(intruder.client, "videos.update", { video_id: videoId, video_name: "yours" }), 403, "workspace_mismatch");
    expectError(await intruder.client.patch(`/api/v1/videos/${videoId}`, { video_name: "yours" }), 403, "workspace_mismatch");
    expect(viaAction.param).toBe("video_id");
    expect((await prisma().video.findUniqueOrThrow({ where: { video_id: videoId } })).video_name).toBe("mine");

    const events = await outbox(intruder.workspaceId);
    expect(events.map((event) => event.type)).toEqual(["action.failed"]);
    expect(events[0]!.request_id).toBe(viaAction.request_id);
    expect((events[0]!.data as Row).object).toMatchObject({
      object: "action_call",
      action: "videos.update",
      key_id: intruder.keyId,
      error: { code: "workspace_mismatch", status: 403, type: "permission_error" },
    });
    // Nothing reached the owner's outbox beyond its own creation.
    expect((await outbox(owner.workspaceId)).map((event) => event.type)).toEqual(["video.created"]);
  });

  it("with a test key videos.create answers the video and writes nothing", async () => {
    const fixture = await createFixture(service);
    const test = await fixture.newKey({ mode: "test" });
    const response = await callAction(test.client, "videos.create", { video_name: "simulated" });
    expect(expectOk(response)).toMatchObject({ object: "video", video_name: "simulated", livemode: false });
    expect(response.headers.get("x-test-mode")).toBe("true");
    expect(await prisma().video.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
    expect(await outbox(fixture.workspaceId)).toEqual([]);
    // Its failures are not recorded either.
    expectError(await callAction(test.client, "videos.create", { video_nmae: "x" }), 422, "validation_failed");
    expect(await outbox(fixture.workspaceId)).toEqual([]);
  });

  it("a validation failure is an action.failed too", async () => {
    const { client, workspaceId } = await createFixture(service);
    expectError(await callAction(client, "videos.create", { video_nmae: "x" }), 422, "validation_failed");
    const events = await outbox(workspaceId);
    expect(events.map((event) => event.type)).toEqual(["action.failed"]);
    expect((events[0]!.data as Row).object).toMatchObject({ action: "videos.create", error: { code: "validation_failed", status: 422 } });
  });
});

describe("account actions", () => {
  it("account.credits answers the balance after a grant", async () => {
    const { client, workspaceId } = await createFixture(service, { scopes: ["usage:read"] });
    expect(expectOk(await getAction(client, "account.credits"))).toMatchObject({ object: "credit_balance", workspace_id: workspaceId, credit_balance: 0 });
    await grant(workspaceId, 42);
    const body = expectOk(await getAction(client, "account.credits"));
    expect(body).toMatchObject({ object: "credit_balance", workspace_id: workspaceId, credit_balance: 42, livemode: true });
    expect(body.request_id).toEqual(expect.any(String));
  });

  it("account.limits lists the four rate windows and the limits that apply", async () => {
    const { client } = await createFixture(service, { scopes: ["usage:read"] });
    const body = expectOk(await getAction(client, "account.limits"));
    expect(body.object).toBe("account_limits");
    expect((body.rate_limits as Row[]).map((window) => window.window)).toEqual(["minute", "hour", "day", "credits_day"]);
    for (const window of body.rate_limits as Row[]) {
      expect(window).toEqual({ window: window.window, limit: expect.any(Number), remaining: expect.any(Number), reset: expect.any(Number), seconds: expect.any(Number) });
      expect(window.remaining).toBeLessThanOrEqual(window.limit);
    }
    expect(body.quota).toBeNull();
    expect(body.page_size).toEqual({ min: 1, max: 100, default: 25 });
    expect(body).toMatchObject({ bulk_items: 100, batch_members: 20, request_body_bytes: expect.any(Number) });
  });

  it("account.credit_history lists movements newest first with page, limit and has_more", async () => {
    const { client, workspaceId } = await createFixture(service, { scopes: ["usage:read"] });
    expect(expectOk(await getAction(client, "account.credit_history"))).toMatchObject({ object: "list", data: [], page: 1, limit: 25, has_more: false });
    for (const amount of [10, 20, 30]) await grant(workspaceId, amount);

    const first = expectOk(await getAction(client, "account.credit_history", "?limit=2"));
    expect(first).toMatchObject({ object: "list", page: 1, limit: 2, has_more: true });
    expect((first.data as Row[]).map((row) => [row.amount, row.balance_after])).toEqual([[30, 60], [20, 30]]);
    expect(first.data[0]).toMatchObject({ object: "credit_transaction", action_type: "grant" });
    expect(first.data[0]).not.toHaveProperty("workspace_id");

    const second = expectOk(await getAction(client, "account.credit_history", "?limit=2&page=2"));
    expect(second).toMatchObject({ page: 2, limit: 2, has_more: false });
    expect((second.data as Row[]).map((row) => row.amount)).toEqual([10]);

    // The ledger of another workspace is not shown.
    const other = await createFixture(service, { scopes: ["usage:read"] });
    expect(expectOk(await getAction(other.client, "account.credit_history")).data).toEqual([]);
  });
});

describe("GraphQL", () => {
  it("runs mutation { videos_create(input: {...}) } and { account_credits }", async () => {
    const { client, workspaceId } = await createFixture(service);
    await grant(workspaceId, 7);
    const created = await client.graphql(`mutation { videos_create(input: {video_name: "x"}) { object video_id video_name } }`);
    expect(created.status, created.text).toBe(200);
    expect(created.body.errors, created.text).toBeUndefined();
    expect(created.body.data.videos_create).toMatchObject({ object: "video", video_name: "x" });
    const videoId = created.body.data.videos_create.video_id as string;
    expect(await prisma().video.findUnique({ where: { video_id: videoId } })).toMatchObject({ workspace_id: workspaceId, video_name: "x" });
    expect((await outbox(workspaceId)).map((event) => event.type)).toEqual(["video.created", "action.completed"]);

    const credits = await client.graphql(`{ account_credits { object credit_balance } }`);
    expect(credits.body.errors, credits.text).toBeUndefined();
    expect(credits.body.data.account_credits).toMatchObject({ object: "credit_balance", credit_balance: 7 });

    // Variables work too, for GET actions as for POST ones.
    const history = await client.graphql(`query($input: AccountCreditHistoryInput) { account_credit_history(input: $input) { object limit has_more data { amount } } }`, { input: { limit: 1 } });
    expect(history.body.errors, history.text).toBeUndefined();
    expect(history.body.data.account_credit_history).toMatchObject({ object: "list", limit: 1, has_more: false });
  });

  it("a GraphQL validation failure carries extensions.code validation_failed", async () => {
    const { client, workspaceId } = await createFixture(service);
    const response = await client.graphql(`mutation { videos_create(input: {video_nmae: "x"}) { video_id } }`);
    expect(response.body.errors?.length, response.text).toBeGreaterThan(0);
    expect(response.body.errors[0].extensions).toMatchObject({ code: "validation_failed", status: 422 });
    expect(response.body.errors[0].extensions.details.issues[0]).toMatchObject({ path: "video_nmae", did_you_mean: "video_name" });
    expect(await prisma().video.count({ where: { workspace_id: workspaceId } })).toBe(0);

    const scope = await (await createFixture(service, { scopes: ["renders:write"] })).client.graphql(`mutation { renders_create(input: {video_id: "vid_x"}) { render_id } }`);
    expect(scope.body.errors[0].extensions).toMatchObject({ code: "insufficient_scope", details: { required_scopes: ["renders:execute", "renders:write"] } });
  });
});

describe("discovery", () => {
  it("GET /api/v1 lists the live actions the key's scopes open, and not the others", async () => {
    const full = await createFixture(service);
    const all = expectOk(await full.client.get("/api/v1"));
    expect((all.actions as Row[]).map((action) => action.name).sort()).toEqual([...liveActionNames()].sort());
    expect((all.actions as Row[]).find((action) => action.name === "renders.create")).toMatchObject({
      method: "POST",
      path: "/api/v1/actions/renders.create",
      scopes: ["renders:execute", "renders:write"],
      credits: true,
      price: { credits: 10 },
      test_mode: "simulate",
    });
    expect((all.actions as Row[]).find((action) => action.name === "account.credits")).toMatchObject({ method: "GET", credits: false });
    expect((all.actions as Row[]).find((action) => action.name === "account.credits")).not.toHaveProperty("price");
    expect((all.actions as Row[]).some((action) => action.name === "timeline.hydrate_tu_preferes")).toBe(true);

    const limited = await full.newKey({ scopes: ["usage:read", "renders:read", "renders:write"] });
    const names = (expectOk(await limited.client.get("/api/v1")).actions as Row[]).map((action) => action.name);
    expect(names).toEqual(expect.arrayContaining(["account.credits", "account.limits", "account.credit_history", "renders.list"]));
    // renders.create needs renders:execute as well; videos.* need videos:write.
    for (const hidden of ["renders.create", "renders.delete", "videos.create", "videos.update"]) expect(names).not.toContain(hidden);
    for (const name of names) expect(actionByName(name)!.scopes.every((scope) => ["usage:read", "renders:read", "renders:write"].includes(scope)), name).toBe(true);
  });
});

// A render of another workspace through renders.delete (the render rows are written with prisma:
// this file runs no workers).
describe("renders.delete ownership", () => {
  it("refuses another workspace's render with 403 and records action.failed", async () => {
    const owner = await createFixture(service);
    const intruder = await createFixture(service);
    const renderId = newId("render");
    await prisma().render.create({ data: { render_id: renderId, workspace_id: owner.workspaceId, render_status: "completed" } });
    const error = expectError(await callAction(intruder.client, "renders.delete", { render_id: renderId }), 403, "workspace_mismatch");
    expect(error.param).toBe("render_id");
    expect(await prisma().render.count({ where: { render_id: renderId } })).toBe(1);
    expect((await outbox(intruder.workspaceId)).map((event) => event.type)).toEqual(["action.failed"]);
  });
});
