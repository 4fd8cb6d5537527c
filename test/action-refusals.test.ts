// Contract 6: every /api/v1/actions/* call that returns an error records action.failed, also a
// call refused before it reached its action (rest/action-refusals.ts): a wrong verb, a body that
// is not JSON, an action the catalog lacks, a spent rate window, a reused Idempotency-Key. A call
// that reached its action records one action.failed, never two; a test key records nothing.
import { describe, expect, it } from "vitest";
import { createFixture, useService, type ApiResponse } from "./support/service.js";

const service = useService();
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;

const failures = async (workspaceId: string) =>
  (await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type: "action.failed" }, orderBy: { seq: "asc" } })).map((event) => ({
    request_id: event.request_id,
    ...((event.data as Row).object as Row),
  }));

function refusedWith(response: ApiResponse, status: number, code: string): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error).toMatchObject({ code, status });
  return response.body.error as Row;
}

describe("action.failed for calls refused before the action", () => {
  it("a wrong verb (405) records action.failed naming the action and method_not_allowed", async () => {
    const { client, workspaceId, keyId } = await createFixture(service);
    const error = refusedWith(await client.get("/api/v1/actions/renders.create"), 405, "method_not_allowed");
    expect(await failures(workspaceId)).toEqual([
      expect.objectContaining({ request_id: error.request_id, object: "action_call", action: "renders.create", key_id: keyId, livemode: true, error: expect.objectContaining({ code: "method_not_allowed", status: 405, type: "invalid_request_error" }) }),
    ]);
  });

  it("a body that is not JSON (400 invalid_json) records action.failed", async () => {
    const { client, workspaceId } = await createFixture(service);
    const error = refusedWith(await client.request("POST", "/api/v1/actions/videos.create", { rawBody: "{not json", headers: { "content-type": "application/json" } }), 400, "invalid_json");
    expect(await failures(workspaceId)).toEqual([expect.objectContaining({ request_id: error.request_id, action: "videos.create", error: expect.objectContaining({ code: "invalid_json", status: 400 }) })]);
  });

  it("an action the catalog lacks (404) records action.failed under the name sent", async () => {
    const { client, workspaceId } = await createFixture(service);
    const error = refusedWith(await client.post("/api/v1/actions/renders.craete", {}), 404, "not_found");
    expect(error.details).toMatchObject({ did_you_mean: "renders.create" });
    expect(await failures(workspaceId)).toEqual([expect.objectContaining({ request_id: error.request_id, action: "renders.craete", error: expect.objectContaining({ code: "not_found", status: 404 }) })]);
  });

  it("a spent rate window (429) records action.failed", async () => {
    const fixture = await createFixture(service);
    const limited = await fixture.newKey({ rateLimits: { minute: 1 } });
    expect((await limited.client.get("/api/v1/actions/account.credits")).status).toBe(200);
    const error = refusedWith(await limited.client.get("/api/v1/actions/account.credits"), 429, "rate_limit_exceeded");
    expect(await failures(fixture.workspaceId)).toEqual([
      expect.objectContaining({ request_id: error.request_id, action: "account.credits", key_id: limited.keyId, error: expect.objectContaining({ code: "rate_limit_exceeded", status: 429 }) }),
    ]);
  });

  it("a reused Idempotency-Key with another body (409) records action.failed; the replay of the first answer records nothing", async () => {
    const { client, workspaceId } = await createFixture(service);
    const headers = { "idempotency-key": `refusal-${Date.now()}` };
    const first = await client.post("/api/v1/actions/videos.create", { video_name: "first" }, { headers });
    expect(first.status, first.text).toBeLessThan(300);
    const replay = await client.post("/api/v1/actions/videos.create", { video_name: "first" }, { headers });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const error = refusedWith(await client.post("/api/v1/actions/videos.create", { video_name: "second" }, { headers }), 409, "idempotency_conflict");
    expect(await failures(workspaceId)).toEqual([expect.objectContaining({ request_id: error.request_id, action: "videos.create", error: expect.objectContaining({ code: "idempotency_conflict", status: 409 }) })]);
  });

  it("a call that reached its action records one action.failed, not a second one", async () => {
    const { client, workspaceId } = await createFixture(service);
    const error = refusedWith(await client.post("/api/v1/actions/videos.update", { video_id: "vid_missing" }), 404, "not_found");
    const recorded = await failures(workspaceId);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ request_id: error.request_id, action: "videos.update" });
  });

  it("a test key's refused call records nothing, and a refused resource route is no action call", async () => {
    const fixture = await createFixture(service);
    const testKey = await fixture.newKey({ mode: "test" });
    refusedWith(await testKey.client.get("/api/v1/actions/renders.create"), 405, "method_not_allowed");
    refusedWith(await fixture.client.request("PUT", "/api/v1/videos"), 405, "method_not_allowed");
    expect(await failures(fixture.workspaceId)).toEqual([]);
  });
});
