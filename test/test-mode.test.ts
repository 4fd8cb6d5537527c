// Test mode (contract 1, 2.1.3, 4.1.5, 5.4): an sk_test_ key runs authentication, scopes,
// validation and routing, answers as if it had written, and leaves the database untouched. A live
// key's write, by contrast, records its event in the outbox in the same transaction.
import { describe, expect, it } from "vitest";
import { createFixture, useService, type ApiResponse, type Client, type Fixture } from "./support/service.js";

const service = useService();

const prisma = () => service.service.database.prisma;

/** Everything a write could touch in one workspace, in a stable order. */
async function workspaceState(workspaceId: string) {
  const db = prisma();
  const [videos, folders, videoFolders, outboxEvents] = await Promise.all([
    db.video.findMany({ where: { workspace_id: workspaceId }, orderBy: { video_id: "asc" } }),
    db.folder.findMany({ where: { workspace_id: workspaceId }, orderBy: { folder_id: "asc" } }),
    db.videoFolder.findMany({
      where: { OR: [{ video: { workspace_id: workspaceId } }, { folder: { workspace_id: workspaceId } }] },
      orderBy: [{ video_id: "asc" }, { folder_id: "asc" }],
    }),
    db.outboxEvent.findMany({ where: { workspace_id: workspaceId }, orderBy: { seq: "asc" } }),
  ]);
  return {
    counts: { videos: videos.length, folders: folders.length, video_folders: videoFolders.length, outbox_events: outboxEvents.length },
    rows: { videos, folders, videoFolders, outboxEvents },
  };
}

interface TestModeWorkspace {
  live: Fixture;
  test: Client;
  workspaceId: string;
  /** A folder holding the seeded video, and a second, empty one. */
  folderId: string;
  otherFolderId: string;
  videoId: string;
  before: Awaited<ReturnType<typeof workspaceState>>;
}

/** A workspace with live-written records, a test key on it, and its state before the test key acts. */
async function testModeWorkspace(scopes: string[] = ["*:*"]): Promise<TestModeWorkspace> {
  const live = await createFixture(service);
  const folder = await live.client.post("/api/v1/folders", { folder_name: "Real folder", folder_color: "red" });
  const otherFolder = await live.client.post("/api/v1/folders", { folder_name: "Other folder" });
  const video = await live.client.post("/api/v1/videos", { video_name: "Real video", video_format: "portrait", folder_ids: [folder.body.folder_id] });
  expect([folder.status, otherFolder.status, video.status]).toEqual([201, 201, 201]);
  const { client } = await live.newKey({ mode: "test", scopes });
  expect(client.key).toMatch(/^sk_test_/);
  const before = await workspaceState(live.workspaceId);
  expect(before.counts).toEqual({ videos: 1, folders: 2, video_folders: 1, outbox_events: 3 });
  return {
    live,
    test: client,
    workspaceId: live.workspaceId,
    folderId: folder.body.folder_id,
    otherFolderId: otherFolder.body.folder_id,
    videoId: video.body.video_id,
    before,
  };
}

async function expectUnchanged(workspace: TestModeWorkspace) {
  const after = await workspaceState(workspace.workspaceId);
  expect(after.counts).toEqual(workspace.before.counts);
  expect(after.rows).toEqual(workspace.before.rows);
}

function expectTestModeSuccess(response: ApiResponse, status: number) {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error).toBeUndefined();
  expect(response.headers.get("x-test-mode")).toBe("true");
  expect(response.body.livemode).toBe(false);
  expect(response.body.request_id).toBe(response.headers.get("x-request-id"));
}

function expectTestModeError(response: ApiResponse, status: number, code: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error, response.text).toMatchObject({ code, status, livemode: false, request_id: response.headers.get("x-request-id") });
  expect(response.headers.get("x-test-mode")).toBe("true");
  return response.body.error as Record<string, unknown>;
}

describe("test mode over REST", () => {
  it("creates a video and a folder in appearance only", async () => {
    const workspace = await testModeWorkspace();
    const { test } = workspace;

    const video = await test.post("/api/v1/videos", { video_name: "Simulated", video_format: "square", config: { fps: 24 }, folder_ids: [workspace.folderId] });
    expectTestModeSuccess(video, 201);
    expect(video.body).toMatchObject({ object: "video", video_name: "Simulated", video_format: "square", config: { fps: 24 }, folder_ids: [workspace.folderId] });
    expect(video.body.video_id).toMatch(/^vid_[0-9A-Za-z]{22}$/);

    const folder = await test.post("/api/v1/folders", { folder_name: "Simulated folder" });
    expectTestModeSuccess(folder, 201);
    expect(folder.body).toMatchObject({ object: "folder", folder_name: "Simulated folder", folder_scope: "video" });
    expect(folder.body.folder_id).toMatch(/^fld_[0-9A-Za-z]{22}$/);

    await expectUnchanged(workspace);
    expectTestModeError(await test.get(`/api/v1/videos/${video.body.video_id}`), 404, "not_found");
    expectTestModeError(await test.get(`/api/v1/folders/${folder.body.folder_id}`), 404, "not_found");
  });

  it("updates a video and a folder (PATCH and the POST alias) in appearance only", async () => {
    const workspace = await testModeWorkspace();
    const { test } = workspace;

    const patched = await test.patch(`/api/v1/videos/${workspace.videoId}`, { video_name: "Renamed", folder_ids: [workspace.otherFolderId] });
    expectTestModeSuccess(patched, 200);
    expect(patched.body).toMatchObject({ object: "video", video_id: workspace.videoId, video_name: "Renamed", video_format: "portrait", folder_ids: [workspace.otherFolderId] });

    const aliased = await test.post(`/api/v1/videos/${workspace.videoId}`, { published: true, folder_ids: [] });
    expectTestModeSuccess(aliased, 200);
    // Each simulated write starts from the real record, not from the previous simulation.
    expect(aliased.body).toMatchObject({ video_name: "Real video", published: true, folder_ids: [] });

    const folder = await test.patch(`/api/v1/folders/${workspace.folderId}`, { folder_name: "Renamed folder", folder_color: null });
    expectTestModeSuccess(folder, 200);
    expect(folder.body).toMatchObject({ object: "folder", folder_id: workspace.folderId, folder_name: "Renamed folder", folder_color: null });

    await expectUnchanged(workspace);
    const real = await test.get(`/api/v1/videos/${workspace.videoId}`);
    expect(real.body).toMatchObject({ video_name: "Real video", published: false, folder_ids: [workspace.folderId], livemode: false });
  });

  it("deletes a video and a folder in appearance only", async () => {
    const workspace = await testModeWorkspace();
    const { test } = workspace;

    const video = await test.delete(`/api/v1/videos/${workspace.videoId}`);
    expectTestModeSuccess(video, 200);
    expect(video.body).toMatchObject({ object: "video", video_id: workspace.videoId, deleted: true });

    // Deleting the folder would cascade to the video's folder link; nothing of it may happen.
    const folder = await test.delete(`/api/v1/folders/${workspace.folderId}`);
    expectTestModeSuccess(folder, 200);
    expect(folder.body).toMatchObject({ object: "folder", folder_id: workspace.folderId, deleted: true });

    await expectUnchanged(workspace);
    expect((await workspace.live.client.get(`/api/v1/videos/${workspace.videoId}`)).body.folder_ids).toEqual([workspace.folderId]);
  });

  it("still validates the payload: 422 validation_failed, and nothing written", async () => {
    const workspace = await testModeWorkspace();
    const { test } = workspace;

    const unknownField = expectTestModeError(await test.post("/api/v1/videos", { video_nam: "typo" }), 422, "validation_failed");
    expect(unknownField.type).toBe("validation_error");
    expect(unknownField.details).toMatchObject({ issues: [expect.objectContaining({ path: "video_nam", type: "object.unknown", did_you_mean: "video_name" })] });

    const badEnum = expectTestModeError(await test.patch(`/api/v1/videos/${workspace.videoId}`, { video_format: "vertical" }), 422, "validation_failed");
    expect(badEnum.details).toMatchObject({ issues: [expect.objectContaining({ path: "video_format" })] });

    const missingFolder = expectTestModeError(await test.patch(`/api/v1/videos/${workspace.videoId}`, { folder_ids: ["fld_doesnotexist000000000"] }), 422, "validation_failed");
    expect(missingFolder.details).toMatchObject({ issues: [expect.objectContaining({ path: "folder_ids.0" })] });

    const emptyName = expectTestModeError(await test.post("/api/v1/folders", { folder_name: "  " }), 422, "validation_failed");
    expect(emptyName.details).toMatchObject({ issues: [expect.objectContaining({ path: "folder_name" })] });
    expectTestModeError(await test.post("/api/v1/folders", {}), 422, "validation_failed");
    expectTestModeError(await test.patch(`/api/v1/folders/${workspace.folderId}`, { folder_scope: "everything" }), 422, "validation_failed");

    await expectUnchanged(workspace);
  });

  it("still checks scopes: 403 insufficient_scope with the details", async () => {
    const workspace = await testModeWorkspace(["videos:read", "videos:write", "folders:read"]);
    const { test } = workspace;
    const granted = ["videos:read", "videos:write", "folders:read"];

    const refusals = [
      [await test.delete(`/api/v1/videos/${workspace.videoId}`), "videos:delete"],
      [await test.post("/api/v1/folders", { folder_name: "x" }), "folders:write"],
      [await test.patch(`/api/v1/folders/${workspace.folderId}`, { folder_name: "x" }), "folders:write"],
      [await test.delete(`/api/v1/folders/${workspace.folderId}`), "folders:delete"],
    ] as const;
    for (const [response, required] of refusals) {
      const error = expectTestModeError(response, 403, "insufficient_scope");
      expect(error.details).toEqual({ required_scopes: [required], granted_scopes: granted });
    }
    // What the key may do still answers.
    expectTestModeSuccess(await test.post("/api/v1/videos", { video_name: "allowed" }), 201);

    await expectUnchanged(workspace);
  });

  it("still routes: a missing id is 404 not_found, another workspace's record is 403", async () => {
    const workspace = await testModeWorkspace();
    const { test } = workspace;

    for (const [group, id, body] of [["videos", "vid_doesnotexist000000000", { video_name: "x" }], ["folders", "fld_doesnotexist000000000", { folder_name: "x" }]] as const) {
      expectTestModeError(await test.get(`/api/v1/${group}/${id}`), 404, "not_found");
      expectTestModeError(await test.patch(`/api/v1/${group}/${id}`, body), 404, "not_found");
      expectTestModeError(await test.post(`/api/v1/${group}/${id}`, body), 404, "not_found");
      expectTestModeError(await test.delete(`/api/v1/${group}/${id}`), 404, "not_found");
    }

    const stranger = await createFixture(service);
    const foreign = await stranger.client.post("/api/v1/videos", { video_name: "Not yours" });
    const strangerBefore = await workspaceState(stranger.workspaceId);
    expectTestModeError(await test.patch(`/api/v1/videos/${foreign.body.video_id}`, { video_name: "x" }), 403, "workspace_mismatch");
    expectTestModeError(await test.delete(`/api/v1/videos/${foreign.body.video_id}`), 403, "workspace_mismatch");
    expect(await workspaceState(stranger.workspaceId)).toEqual(strangerBefore);

    await expectUnchanged(workspace);
  });
});

describe("test mode over GraphQL", () => {
  function expectGraphQLTestMode(response: ApiResponse) {
    expect(response.status, response.text).toBe(200);
    expect(response.body.errors, response.text).toBeUndefined();
    expect(response.headers.get("x-test-mode")).toBe("true");
    return response.body.data;
  }

  function expectGraphQLError(response: ApiResponse, code: string) {
    expect(response.headers.get("x-test-mode")).toBe("true");
    expect(response.body.data ?? null, response.text).toBeNull();
    const extensions = response.body.errors?.[0]?.extensions;
    expect(extensions, response.text).toMatchObject({ code, livemode: false, request_id: response.headers.get("x-request-id") });
    return extensions as Record<string, unknown>;
  }

  it("creates, updates and deletes videos and folders in appearance only", async () => {
    const workspace = await testModeWorkspace();
    const { test } = workspace;

    const created = expectGraphQLTestMode(await test.graphql(
      `mutation($folder: String!) {
        create_video(input: { video_name: "Simulated", folder_ids: [$folder] }) { object video_id video_name folder_ids }
        create_folder(input: { folder_name: "Simulated folder" }) { object folder_id folder_name }
      }`,
      { folder: workspace.folderId },
    ));
    expect(created.create_video).toMatchObject({ object: "video", video_name: "Simulated", folder_ids: [workspace.folderId] });
    expect(created.create_video.video_id).toMatch(/^vid_/);
    expect(created.create_folder).toMatchObject({ object: "folder", folder_name: "Simulated folder" });
    expect(created.create_folder.folder_id).toMatch(/^fld_/);

    const updated = expectGraphQLTestMode(await test.graphql(
      `mutation($video: ID!, $folder: ID!, $other: String!) {
        update_video(video_id: $video, input: { video_name: "Renamed", folder_ids: [$other] }) { video_id video_name folder_ids }
        update_folder(folder_id: $folder, input: { folder_name: "Renamed folder" }) { folder_id folder_name }
      }`,
      { video: workspace.videoId, folder: workspace.folderId, other: workspace.otherFolderId },
    ));
    expect(updated).toEqual({
      update_video: { video_id: workspace.videoId, video_name: "Renamed", folder_ids: [workspace.otherFolderId] },
      update_folder: { folder_id: workspace.folderId, folder_name: "Renamed folder" },
    });

    const deleted = expectGraphQLTestMode(await test.graphql(
      `mutation($video: ID!, $folder: ID!) {
        delete_video(video_id: $video) { object video_id deleted }
        delete_folder(folder_id: $folder) { object folder_id deleted }
      }`,
      { video: workspace.videoId, folder: workspace.folderId },
    ));
    expect(deleted).toEqual({
      delete_video: { object: "video", video_id: workspace.videoId, deleted: true },
      delete_folder: { object: "folder", folder_id: workspace.folderId, deleted: true },
    });

    await expectUnchanged(workspace);
  });

  it("still validates, checks scopes and reports a missing id, writing nothing", async () => {
    const workspace = await testModeWorkspace(["videos:read", "videos:write", "folders:read"]);
    const { test } = workspace;

    const invalid = expectGraphQLError(await test.graphql('mutation { create_video(input: { video_format: "vertical" }) { video_id } }'), "validation_failed");
    expect(invalid.details).toMatchObject({ issues: [expect.objectContaining({ path: "video_format" })] });

    const noScope = expectGraphQLError(await test.graphql('mutation { create_folder(input: { folder_name: "x" }) { folder_id } }'), "insufficient_scope");
    expect(noScope.details).toEqual({ required_scopes: ["folders:write"], granted_scopes: ["videos:read", "videos:write", "folders:read"] });
    const noDelete = expectGraphQLError(await test.graphql("mutation($id: ID!) { delete_video(video_id: $id) { deleted } }", { id: workspace.videoId }), "insufficient_scope");
    expect(noDelete.details).toMatchObject({ required_scopes: ["videos:delete"] });

    expectGraphQLError(await test.graphql('mutation { update_video(video_id: "vid_doesnotexist000000000", input: { video_name: "x" }) { video_id } }'), "not_found");
    expectGraphQLError(await test.graphql('{ folder(folder_id: "fld_doesnotexist000000000") { folder_id } }'), "not_found");

    await expectUnchanged(workspace);
  });
});

describe("live writes record their events", () => {
  /** The events a request caused, by its request id. */
  async function eventsOf(response: ApiResponse) {
    const requestId = response.headers.get("x-request-id")!;
    return prisma().outboxEvent.findMany({ where: { request_id: requestId }, orderBy: { seq: "asc" } });
  }

  function record(body: Record<string, unknown>) {
    const { livemode: _livemode, request_id: _requestId, ...rest } = body;
    return rest;
  }

  it("adds video.created, video.updated and video.deleted to the outbox with the record as data.object", async () => {
    const { client, workspaceId } = await createFixture(service);
    const folder = await client.post("/api/v1/folders", { folder_name: "Holder" });

    const created = await client.post("/api/v1/videos", { video_name: "Live", folder_ids: [folder.body.folder_id] });
    expect(created.status).toBe(201);
    expect(created.headers.get("x-test-mode")).toBeNull();
    const [createdEvent, ...extraCreated] = await eventsOf(created);
    expect(extraCreated).toEqual([]);
    expect(createdEvent).toMatchObject({ workspace_id: workspaceId, type: "video.created", livemode: true, data: { object: record(created.body) } });
    expect(createdEvent!.event_id).toMatch(/^evt_/);

    const updated = await client.patch(`/api/v1/videos/${created.body.video_id}`, { video_comment: "cut 2" });
    expect(updated.status).toBe(200);
    const updatedEvents = await eventsOf(updated);
    expect(updatedEvents).toHaveLength(1);
    expect(updatedEvents[0]).toMatchObject({ workspace_id: workspaceId, type: "video.updated", data: { object: record(updated.body) } });
    expect((updatedEvents[0]!.data as { object: Record<string, unknown> }).object.video_comment).toBe("cut 2");

    const deleted = await client.delete(`/api/v1/videos/${created.body.video_id}`);
    expect(deleted.status).toBe(200);
    const deletedEvents = await eventsOf(deleted);
    expect(deletedEvents).toHaveLength(1);
    // The deletion event carries the record as it was just before.
    expect(deletedEvents[0]).toMatchObject({ workspace_id: workspaceId, type: "video.deleted", data: { object: record(updated.body) } });

    expect((await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId }, orderBy: { seq: "asc" } })).map((event) => event.type))
      .toEqual(["folder.created", "video.created", "video.updated", "video.deleted"]);
  });

  it("adds folder events for GraphQL writes too", async () => {
    const { client, workspaceId } = await createFixture(service);
    const created = await client.graphql('mutation { create_folder(input: { folder_name: "Via GraphQL", folder_color: "blue" }) { folder_id } }');
    const folderId = created.body.data.create_folder.folder_id as string;
    const [event] = await eventsOf(created);
    expect(event).toMatchObject({
      workspace_id: workspaceId,
      type: "folder.created",
      livemode: true,
      data: { object: { object: "folder", folder_id: folderId, folder_name: "Via GraphQL", folder_color: "blue", folder_scope: "video" } },
    });

    const renamed = await client.graphql("mutation($id: ID!) { update_folder(folder_id: $id, input: { folder_name: \"Renamed\" }) { folder_id } }", { id: folderId });
    expect((await eventsOf(renamed)).map((e) => [e.type, (e.data as { object: { folder_name: string } }).object.folder_name])).toEqual([["folder.updated", "Renamed"]]);
    const removed = await client.graphql("mutation($id: ID!) { delete_folder(folder_id: $id) { deleted } }", { id: folderId });
    expect((await eventsOf(removed)).map((e) => [e.workspace_id, e.type])).toEqual([[workspaceId, "folder.deleted"]]);
  });
});
