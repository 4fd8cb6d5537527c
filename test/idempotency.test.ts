// Idempotency-Key over real HTTP (contract 4.1.3, 7, 8.4; src/guards/idempotency.ts): concurrent
// first uses, byte-for-byte replays, conflicts, scoping to the API key, what is and is not stored,
// and every unsafe surface (POST, PATCH, DELETE, batch, bulk, GraphQL mutations).
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createFixture, useService, type ApiResponse } from "./support/service.js";

const service = useService();

type Row = Record<string, any>;

const prisma = () => service.service.database.prisma;
const videoCount = (workspaceId: string) => prisma().video.count({ where: { workspace_id: workspaceId } });
const idem = (key: string) => ({ headers: { "idempotency-key": key } });
const newKey = () => `idem-${randomUUID()}`;

function expectError(response: ApiResponse, status: number, code: string): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error, response.text).toMatchObject({ code, status, request_id: response.headers.get("x-request-id") });
  return response.body.error as Row;
}

/** `replay` answers exactly what `original` answered, and says it is a replay. */
function expectReplayOf(replay: ApiResponse, original: ApiResponse) {
  expect(replay.status).toBe(original.status);
  expect(replay.text).toBe(original.text);
  expect(replay.headers.get("idempotent-replayed")).toBe("true");
  // X-Request-Id of the replay: see "a replay carries the original's X-Request-Id".
  expect(replay.headers.get("content-type")).toBe(original.headers.get("content-type"));
  const replayId = replay.headers.get("x-replay-request-id");
  expect(replayId).toMatch(/^req_/);
  expect(replayId).not.toBe(original.headers.get("x-request-id"));
}

function expectExecuted(response: ApiResponse) {
  expect(response.headers.get("idempotent-replayed")).toBeNull();
  expect(response.headers.get("x-replay-request-id")).toBeNull();
}

describe("first use and replay", () => {
  it("8 parallel POSTs with one key and body create exactly one video; the others are replays or 409 in progress", async () => {
    const { client, workspaceId } = await createFixture(service);
    const key = newKey();
    const body = { video_name: "Once only", video_comment: "parallel" };
    const responses = await Promise.all(Array.from({ length: 8 }, () => client.post("/api/v1/videos", body, idem(key))));

    expect(await videoCount(workspaceId)).toBe(1);
    const executed = responses.filter((response) => response.status === 201 && response.headers.get("idempotent-replayed") === null);
    expect(executed, responses.map((response) => `${response.status} ${response.text}`).join("\n")).toHaveLength(1);
    const first = executed[0]!;
    expect(first.body).toMatchObject({ object: "video", video_name: "Once only", request_id: first.headers.get("x-request-id") });

    for (const response of responses.filter((candidate) => candidate !== first)) {
      if (response.status === 409) {
        const error = expectError(response, 409, "idempotency_in_progress");
        expect(error).toMatchObject({ type: "conflict_error", retryable: true });
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      } else {
        expectReplayOf(response, first);
      }
    }

    // Later, within the window: the first response again, byte for byte.
    const later = await client.post("/api/v1/videos", body, idem(key));
    expectReplayOf(later, first);
    expect(later.body.request_id).toBe(first.body.request_id);
    expect(await videoCount(workspaceId)).toBe(1);
  });

  it("a replay carries the original's X-Request-Id (equal to its body's request_id)", async () => {
    const { client } = await createFixture(service);
    const key = newKey();
    const first = await client.post("/api/v1/videos", { video_name: "ids" }, idem(key));
    expect(first.status, first.text).toBe(201);
    const replay = await client.post("/api/v1/videos", { video_name: "ids" }, idem(key));
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.headers.get("x-replay-request-id")).toMatch(/^req_/);
    expect(replay.body.request_id).toBe(first.headers.get("x-request-id"));
    expect(replay.headers.get("x-request-id")).toBe(first.headers.get("x-request-id"));
  });

  it("the same key with a different body is 409 idempotency_conflict and runs nothing", async () => {
    const { client, workspaceId } = await createFixture(service);
    const key = newKey();
    const first = await client.post("/api/v1/videos", { video_name: "A" }, idem(key));
    expect(first.status, first.text).toBe(201);
    const conflict = await client.post("/api/v1/videos", { video_name: "B" }, idem(key));
    const error = expectError(conflict, 409, "idempotency_conflict");
    expect(error).toMatchObject({ type: "conflict_error", retryable: false, param: "Idempotency-Key" });
    expectExecuted(conflict);
    // Another path with the same key is another request too.
    expectError(await client.post("/api/v1/folders", { video_name: "A" }, idem(key)), 409, "idempotency_conflict");
    expect(await videoCount(workspaceId)).toBe(1);
    // The original still replays.
    expectReplayOf(await client.post("/api/v1/videos", { video_name: "A" }, idem(key)), first);
  });

  it("is scoped to the API key: another key reusing it runs anew", async () => {
    const fixture = await createFixture(service);
    const other = await fixture.newKey();
    const key = newKey();
    const body = { video_name: "Per key" };
    const mine = await fixture.client.post("/api/v1/videos", body, idem(key));
    const theirs = await other.client.post("/api/v1/videos", body, idem(key));
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expectExecuted(theirs);
    expect(theirs.body.video_id).not.toBe(mine.body.video_id);
    expect(await videoCount(fixture.workspaceId)).toBe(2);
    // Each key replays its own.
    expectReplayOf(await other.client.post("/api/v1/videos", body, idem(key)), theirs);
    expectReplayOf(await fixture.client.post("/api/v1/videos", body, idem(key)), mine);
  });

  it("ignores the header on GET", async () => {
    const { client } = await createFixture(service);
    const key = newKey();
    const before = await client.get("/api/v1/videos", idem(key));
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual([]);
    await client.post("/api/v1/videos", { video_name: "In between" });
    const after = await client.get("/api/v1/videos", idem(key));
    expectExecuted(after);
    expect(after.body.data).toHaveLength(1);
    expect(after.body.request_id).not.toBe(before.body.request_id);
  });

  it("refuses a key longer than 255 characters with 400 invalid_request on Idempotency-Key", async () => {
    const { client, workspaceId } = await createFixture(service);
    const tooLong = await client.post("/api/v1/videos", { video_name: "x" }, idem("k".repeat(256)));
    expect(expectError(tooLong, 400, "invalid_request")).toMatchObject({ param: "Idempotency-Key", retryable: false });
    expect(await videoCount(workspaceId)).toBe(0);
    const longest = await client.post("/api/v1/videos", { video_name: "x" }, idem("k".repeat(255)));
    expect(longest.status, longest.text).toBe(201);
  });
});

describe("what is stored", () => {
  it("does not store a 422: the same key with a fixed body then succeeds", async () => {
    const { client, workspaceId } = await createFixture(service);
    const key = newKey();
    const invalid = await client.post("/api/v1/videos", { video_name: "x", not_a_field: 1 }, idem(key));
    expectError(invalid, 422, "validation_failed");
    // Sent again, it runs again (no replay).
    const again = await client.post("/api/v1/videos", { video_name: "x", not_a_field: 1 }, idem(key));
    expectError(again, 422, "validation_failed");
    expectExecuted(again);
    expect(again.body.error.request_id).not.toBe(invalid.body.error.request_id);
    const fixed = await client.post("/api/v1/videos", { video_name: "x" }, idem(key));
    expect(fixed.status, fixed.text).toBe(201);
    expectExecuted(fixed);
    expect(await videoCount(workspaceId)).toBe(1);
  });

  it("stores a 404 (PATCH of a missing id) and replays it", async () => {
    const { client } = await createFixture(service);
    const key = newKey();
    const path = "/api/v1/videos/vid_doesnotexist000000000";
    const missing = await client.patch(path, { video_name: "ghost" }, idem(key));
    expectError(missing, 404, "not_found");
    expectReplayOf(await client.patch(path, { video_name: "ghost" }, idem(key)), missing);
  });

  it("replays a PATCH without running it again", async () => {
    const { client } = await createFixture(service);
    const created = await client.post("/api/v1/videos", { video_name: "v1" });
    const path = `/api/v1/videos/${created.body.video_id}`;
    const key = newKey();
    const patched = await client.patch(path, { video_name: "v2" }, idem(key));
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.video_name).toBe("v2");
    // Changed by someone else in between: a replay must not undo that.
    expect((await client.patch(path, { video_name: "v3" })).status).toBe(200);
    expectReplayOf(await client.patch(path, { video_name: "v2" }, idem(key)), patched);
    expect((await client.get(path)).body.video_name).toBe("v3");
  });

  it("replays a DELETE (not a 404 for the now missing record)", async () => {
    const { client, workspaceId } = await createFixture(service);
    const created = await client.post("/api/v1/videos", { video_name: "doomed" });
    const path = `/api/v1/videos/${created.body.video_id}`;
    const key = newKey();
    const deleted = await client.delete(path, idem(key));
    expect(deleted.status, deleted.text).toBe(200);
    expectReplayOf(await client.delete(path, idem(key)), deleted);
    expect(await videoCount(workspaceId)).toBe(0);
    // Without the key, the route answers for itself.
    expect((await client.delete(path)).status).toBe(404);
  });

  it("works on POST /api/v1/batch", async () => {
    const { client, workspaceId } = await createFixture(service);
    const key = newKey();
    const body = { requests: [{ id: "c", method: "POST", path: "/v1/videos", body: { video_name: "from batch" } }, { id: "l", method: "GET", path: "/v1/videos" }] };
    const first = await client.post("/api/v1/batch", body, idem(key));
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.map((member: Row) => member.status)).toEqual([201, 200]);
    expectReplayOf(await client.post("/api/v1/batch", body, idem(key)), first);
    expect(await videoCount(workspaceId)).toBe(1);
  });

  it("works on bulk", async () => {
    const { client, workspaceId } = await createFixture(service);
    const key = newKey();
    const body = { create: [{ video_name: "b1" }, { video_name: "b2" }] };
    const first = await client.post("/api/v1/videos/bulk", body, idem(key));
    expect(first.status, first.text).toBe(200);
    expectReplayOf(await client.post("/api/v1/videos/bulk", body, idem(key)), first);
    expect(await videoCount(workspaceId)).toBe(2);
    expectError(await client.post("/api/v1/videos/bulk", { create: [{ video_name: "b3" }] }, idem(key)), 409, "idempotency_conflict");
  });

  it("works on a GraphQL mutation", async () => {
    const { client, workspaceId } = await createFixture(service);
    const key = newKey();
    const mutation = "mutation($input: VideoCreateInput!) { create_video(input: $input) { video_id video_name } }";
    const first = await client.graphql(mutation, { input: { video_name: "over graphql" } }, idem(key));
    expect(first.status, first.text).toBe(200);
    expect(first.body.errors, first.text).toBeUndefined();
    expectReplayOf(await client.graphql(mutation, { input: { video_name: "over graphql" } }, idem(key)), first);
    expect(await videoCount(workspaceId)).toBe(1);
    expectError(await client.graphql(mutation, { input: { video_name: "other" } }, idem(key)), 409, "idempotency_conflict");
    expect(await videoCount(workspaceId)).toBe(1);
  });

  it("does not store a GraphQL mutation refused by validation either", async () => {
    const { client, workspaceId } = await createFixture(service);
    const key = newKey();
    const mutation = "mutation($input: VideoCreateInput!) { create_video(input: $input) { video_id video_name } }";
    const invalid = await client.graphql(mutation, { input: { video_name: "x", video_format: "not-a-format" } }, idem(key));
    expect(invalid.body.errors?.[0]?.extensions?.code, invalid.text).toBe("validation_failed");
    const fixed = await client.graphql(mutation, { input: { video_name: "x" } }, idem(key));
    expect(fixed.body.errors, fixed.text).toBeUndefined();
    expect(fixed.body.data.create_video.video_name).toBe("x");
    expect(await videoCount(workspaceId)).toBe(1);
  });
});
