// Videos and folders through GraphQL (/graphql): create -> get -> update -> delete, and the same
// records seen across surfaces: what one surface writes, the other reads, both ways.
import { describe, expect, it } from "vitest";
import { createFixture, useService, type ApiResponse, type Client } from "./support/service.js";

const service = useService();

type Row = Record<string, any>;

const VIDEO_FIELDS = `
  object video_id video_name video_comment video_format published video_keyword config video_json
  folder_ids video_user_id video_created_at video_updated_at video_last_audios_edition faceless_target_duration
`;
const FOLDER_FIELDS = "object folder_id folder_name folder_scope folder_color folder_order folder_created_at folder_updated_at";

/** Runs a GraphQL operation that must succeed and returns its data. */
async function gql(client: Client, query: string, variables?: Record<string, unknown>): Promise<Row> {
  const response = await client.graphql(query, variables);
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  expect(response.body.error).toBeUndefined();
  return response.body.data as Row;
}

/** Runs a GraphQL operation that must fail; returns the first error's extensions. */
async function gqlError(client: Client, query: string, variables?: Record<string, unknown>): Promise<Row> {
  const response = await client.graphql(query, variables);
  expect(response.body.errors?.length, response.text).toBeGreaterThan(0);
  return response.body.errors[0].extensions as Row;
}

const Video = {
  create: (client: Client, input: Row) =>
    gql(client, `mutation($input: VideoCreateInput!) { create_video(input: $input) { ${VIDEO_FIELDS} } }`, { input }).then((d) => d.create_video as Row),
  get: (client: Client, id: string) =>
    gql(client, `query($id: ID!) { video(video_id: $id) { ${VIDEO_FIELDS} } }`, { id }).then((d) => d.video as Row),
  update: (client: Client, id: string, input: Row) =>
    gql(client, `mutation($id: ID!, $input: VideoUpdateInput!) { update_video(video_id: $id, input: $input) { ${VIDEO_FIELDS} } }`, { id, input }).then(
      (d) => d.update_video as Row,
    ),
  delete: (client: Client, id: string) =>
    gql(client, "mutation($id: ID!) { delete_video(video_id: $id) { object video_id deleted } }", { id }).then((d) => d.delete_video as Row),
  listIds: (client: Client) =>
    gql(client, "{ videos(limit: 100) { object data { video_id } } }").then((d) => (d.videos.data as Row[]).map((v) => v.video_id as string)),
};

const Folder = {
  create: (client: Client, input: Row) =>
    gql(client, `mutation($input: FolderCreateInput!) { create_folder(input: $input) { ${FOLDER_FIELDS} } }`, { input }).then((d) => d.create_folder as Row),
  get: (client: Client, id: string) =>
    gql(client, `query($id: ID!) { folder(folder_id: $id) { ${FOLDER_FIELDS} } }`, { id }).then((d) => d.folder as Row),
  update: (client: Client, id: string, input: Row) =>
    gql(client, `mutation($id: ID!, $input: FolderUpdateInput!) { update_folder(folder_id: $id, input: $input) { ${FOLDER_FIELDS} } }`, { id, input }).then(
      (d) => d.update_folder as Row,
    ),
  delete: (client: Client, id: string) =>
    gql(client, "mutation($id: ID!) { delete_folder(folder_id: $id) { object folder_id deleted } }", { id }).then((d) => d.delete_folder as Row),
  listIds: (client: Client) =>
    gql(client, "{ folders(limit: 100) { object data { folder_id } } }").then((d) => (d.folders.data as Row[]).map((f) => f.folder_id as string)),
};

function expectOk(response: ApiResponse, status = 200): Row {
  expect(response.status, response.text).toBe(status);
  return response.body as Row;
}

/** The record fields of a REST body (without the response envelope). */
function recordOf(body: Row): Row {
  const { livemode: _livemode, request_id: _requestId, ...record } = body;
  return record;
}

describe("videos through GraphQL", () => {
  it("creates, reads, updates and deletes a video", async () => {
    const { client, keyId } = await createFixture(service);

    const created = await Video.create(client, {
      video_name: "Launch teaser",
      video_format: "portrait",
      config: { fps: 30, tracks: [{ kind: "audio" }] },
      faceless_target_duration: 42.5,
      video_last_audios_edition: "2026-03-04T05:06:07.000Z",
    });
    expect(created).toMatchObject({
      object: "video",
      video_name: "Launch teaser",
      video_format: "portrait",
      config: { fps: 30, tracks: [{ kind: "audio" }] },
      faceless_target_duration: 42.5,
      folder_ids: [],
      published: false,
      video_user_id: keyId,
    });
    expect(Date.parse(created.video_last_audios_edition)).toBe(Date.parse("2026-03-04T05:06:07.000Z"));
    expect(created.video_id).toMatch(/^vid_[0-9A-Za-z]+$/);
    const id = created.video_id as string;

    expect(await Video.get(client, id)).toEqual(created);
    expect(await Video.listIds(client)).toEqual([id]);

    const updated = await Video.update(client, id, { video_comment: "first cut", published: true, config: null });
    expect(updated).toMatchObject({ video_id: id, video_name: "Launch teaser", video_comment: "first cut", published: true, config: null });
    // Fields left out are kept; the creation stamp does not move.
    expect(updated.video_format).toBe("portrait");
    expect(updated.video_created_at).toBe(created.video_created_at);
    expect(await Video.get(client, id)).toEqual(updated);

    expect(await Video.delete(client, id)).toEqual({ object: "video", video_id: id, deleted: true });
    expect((await gqlError(client, "query($id: ID!) { video(video_id: $id) { video_id } }", { id })).code).toBe("not_found");
    expect(await Video.listIds(client)).toEqual([]);
    expect((await gqlError(client, "mutation($id: ID!) { delete_video(video_id: $id) { deleted } }", { id })).code).toBe("not_found");
  });

  it("takes an inline literal input as well as variables", async () => {
    const { client } = await createFixture(service);
    const data = await gql(client, 'mutation { create_video(input: { video_name: "Inline", published: true, config: { fps: 24 } }) { video_id video_name published config } }');
    expect(data.create_video).toMatchObject({ video_name: "Inline", published: true, config: { fps: 24 } });
    const id = data.create_video.video_id as string;
    const updated = await gql(client, `mutation { update_video(video_id: "${id}", input: { video_name: "Inline 2" }) { video_name published } }`);
    expect(updated.update_video).toEqual({ video_name: "Inline 2", published: true });
  });

  it("ignores identity, ownership and timestamps sent in the input", async () => {
    const { client, keyId } = await createFixture(service);
    const created = await Video.create(client, {
      video_id: "vid_chosen_by_client",
      video_user_id: "someone_else",
      video_created_at: "2001-01-01T00:00:00Z",
      video_name: "Mine",
    });
    expect(created.video_id).not.toBe("vid_chosen_by_client");
    expect(created.video_user_id).toBe(keyId);
    expect(new Date(created.video_created_at).getFullYear()).toBeGreaterThan(2020);
  });

  it("never reads, changes or deletes another workspace's video", async () => {
    const { client } = await createFixture(service);
    const other = await createFixture(service);
    const theirs = await Video.create(other.client, { video_name: "Theirs" });
    const id = theirs.video_id as string;

    expect((await gqlError(client, "query($id: ID!) { video(video_id: $id) { video_id } }", { id })).code).toBe("workspace_mismatch");
    const update = await gqlError(client, 'mutation($id: ID!) { update_video(video_id: $id, input: { video_name: "Stolen" }) { video_id } }', { id });
    expect(update.code).toBe("workspace_mismatch");
    expect((await gqlError(client, "mutation($id: ID!) { delete_video(video_id: $id) { deleted } }", { id })).code).toBe("workspace_mismatch");
    expect(await Video.listIds(client)).toEqual([]);
    expect(await Video.get(other.client, id)).toEqual(theirs);
  });
});

describe("folders through GraphQL", () => {
  it("creates, reads, updates and deletes a folder", async () => {
    const { client } = await createFixture(service);
    const created = await Folder.create(client, { folder_name: "Drafts", folder_color: "#ff0000", folder_order: 3 });
    expect(created).toMatchObject({ object: "folder", folder_name: "Drafts", folder_color: "#ff0000", folder_order: 3, folder_scope: "video" });
    expect(created.folder_id).toMatch(/^fld_[0-9A-Za-z]+$/);
    const id = created.folder_id as string;

    expect(await Folder.get(client, id)).toEqual(created);
    expect(await Folder.listIds(client)).toEqual([id]);

    const updated = await Folder.update(client, id, { folder_name: "Finals", folder_color: null });
    expect(updated).toMatchObject({ folder_id: id, folder_name: "Finals", folder_color: null, folder_order: 3 });
    expect(updated.folder_created_at).toBe(created.folder_created_at);
    expect(await Folder.get(client, id)).toEqual(updated);

    expect(await Folder.delete(client, id)).toEqual({ object: "folder", folder_id: id, deleted: true });
    expect((await gqlError(client, "query($id: ID!) { folder(folder_id: $id) { folder_id } }", { id })).code).toBe("not_found");
    expect(await Folder.listIds(client)).toEqual([]);
  });

  it("rejects an invalid folder update and keeps the folder", async () => {
    const { client } = await createFixture(service);
    const created = await Folder.create(client, { folder_name: "Keep" });
    const error = await gqlError(
      client,
      'mutation($id: ID!) { update_folder(folder_id: $id, input: { folder_scope: "everything" }) { folder_id } }',
      { id: created.folder_id },
    );
    expect(error.code).toBe("validation_failed");
    expect(error.details.issues[0]).toMatchObject({ path: "folder_scope", type: "any.only" });
    expect(await Folder.get(client, created.folder_id)).toEqual(created);
  });
});

describe("REST and GraphQL see the same records", () => {
  it("shows a REST-created video identically through GraphQL, field for field", async () => {
    const { client } = await createFixture(service);
    const folder = expectOk(await client.post("/api/v1/folders", { folder_name: "F" }), 201);
    const rest = expectOk(
      await client.post("/api/v1/videos", {
        video_name: "Same everywhere",
        video_json: { timeline: [1, 2, 3] },
        blocks: [{ type: "text", value: "hi" }],
        video_last_audios_edition: "2026-01-02T03:04:05.678Z",
        folder_ids: [folder.folder_id],
      }),
      201,
    );
    const record = recordOf(rest);
    // Ask GraphQL for exactly the fields REST returned.
    const data = await gql(client, `query($id: ID!) { video(video_id: $id) { ${Object.keys(record).join(" ")} } }`, { id: rest.video_id });
    expect(data.video).toEqual(record);
    expect(recordOf(expectOk(await client.get(`/api/v1/videos/${rest.video_id}`)))).toEqual(record);
  });

  it("updates through GraphQL a video created through REST, and REST sees the change", async () => {
    const { client } = await createFixture(service);
    const rest = expectOk(await client.post("/api/v1/videos", { video_name: "From REST", video_keyword: "k" }), 201);
    const id = rest.video_id as string;

    const read = await Video.get(client, id);
    expect(read).toMatchObject({ video_id: id, video_name: "From REST", video_keyword: "k" });

    const updated = await Video.update(client, id, { video_name: "Renamed in GraphQL", video_json: { scenes: 2 } });
    expect(updated.video_name).toBe("Renamed in GraphQL");

    const after = expectOk(await client.get(`/api/v1/videos/${id}`));
    expect(after).toMatchObject({ video_name: "Renamed in GraphQL", video_keyword: "k", video_json: { scenes: 2 } });
    expect(after.video_updated_at).toBe(updated.video_updated_at);
    const list = expectOk(await client.get("/api/v1/videos?fields=video_name"));
    expect(list.data).toEqual([{ object: "video", video_id: id, video_name: "Renamed in GraphQL" }]);
  });

  it("updates through REST a video created through GraphQL, and GraphQL sees the change", async () => {
    const { client } = await createFixture(service);
    const created = await Video.create(client, { video_name: "From GraphQL", published: false });
    const id = created.video_id as string;

    const fetched = expectOk(await client.get(`/api/v1/videos/${id}`));
    expect(fetched).toMatchObject({ object: "video", video_id: id, video_name: "From GraphQL" });

    expectOk(await client.patch(`/api/v1/videos/${id}`, { published: true, video_comment: "via PATCH" }));
    expect(await Video.get(client, id)).toMatchObject({ video_name: "From GraphQL", published: true, video_comment: "via PATCH" });

    expectOk(await client.post(`/api/v1/videos/${id}`, { video_comment: null }));
    const data = await gql(client, "{ videos { data { video_id video_comment published } } }");
    expect(data.videos.data).toEqual([{ video_id: id, video_comment: null, published: true }]);
  });

  it("shares folders both ways: REST folder renamed through GraphQL and GraphQL folder renamed through REST", async () => {
    const { client } = await createFixture(service);
    const restFolder = expectOk(await client.post("/api/v1/folders", { folder_name: "REST folder" }), 201);
    const gqlFolder = await Folder.create(client, { folder_name: "GraphQL folder" });

    expect(await Folder.get(client, restFolder.folder_id)).toEqual(recordOf(restFolder));
    await Folder.update(client, restFolder.folder_id, { folder_name: "REST folder, renamed" });
    expect(expectOk(await client.get(`/api/v1/folders/${restFolder.folder_id}`)).folder_name).toBe("REST folder, renamed");

    expect(recordOf(expectOk(await client.get(`/api/v1/folders/${gqlFolder.folder_id}`)))).toEqual(gqlFolder);
    expectOk(await client.patch(`/api/v1/folders/${gqlFolder.folder_id}`, { folder_order: 9 }));
    expect((await Folder.get(client, gqlFolder.folder_id)).folder_order).toBe(9);

    expect((await Folder.listIds(client)).sort()).toEqual([restFolder.folder_id, gqlFolder.folder_id].sort());
  });

  it("carries folder_ids set on one surface to the other, in the order given", async () => {
    const { client } = await createFixture(service);
    const a = expectOk(await client.post("/api/v1/folders", { folder_name: "A" }), 201).folder_id as string;
    const b = (await Folder.create(client, { folder_name: "B" })).folder_id as string;
    const c = expectOk(await client.post("/api/v1/folders", { folder_name: "C" }), 201).folder_id as string;

    // Set through GraphQL, read through REST.
    const video = await Video.create(client, { video_name: "Filed", folder_ids: [b, a] });
    expect(video.folder_ids).toEqual([b, a]);
    expect(expectOk(await client.get(`/api/v1/videos/${video.video_id}`)).folder_ids).toEqual([b, a]);

    // Replaced through REST, read through GraphQL.
    expect(expectOk(await client.patch(`/api/v1/videos/${video.video_id}`, { folder_ids: [c, b] })).folder_ids).toEqual([c, b]);
    expect((await Video.get(client, video.video_id)).folder_ids).toEqual([c, b]);

    // Cleared through GraphQL, read through REST (get and list).
    expect((await Video.update(client, video.video_id, { folder_ids: [] })).folder_ids).toEqual([]);
    expect(expectOk(await client.get(`/api/v1/videos/${video.video_id}`)).folder_ids).toEqual([]);
    expect(expectOk(await client.get("/api/v1/videos?fields=folder_ids")).data).toEqual([{ object: "video", video_id: video.video_id, folder_ids: [] }]);

    // Created through REST with folders, listed through GraphQL.
    const second = expectOk(await client.post("/api/v1/videos", { video_name: "Second", folder_ids: [a, c] }), 201);
    const listed = await gql(client, "{ videos { data { video_id folder_ids } } }");
    expect(listed.videos.data).toContainEqual({ video_id: second.video_id, folder_ids: [a, c] });

    // An update that leaves folder_ids out keeps them.
    await Video.update(client, second.video_id, { video_name: "Second, renamed" });
    expect(expectOk(await client.get(`/api/v1/videos/${second.video_id}`)).folder_ids).toEqual([a, c]);
  });

  it("removes a video deleted through GraphQL from REST, and one deleted through REST from GraphQL", async () => {
    const { client } = await createFixture(service);
    const viaRest = expectOk(await client.post("/api/v1/videos", { video_name: "Created in REST" }), 201);
    const viaGql = await Video.create(client, { video_name: "Created in GraphQL" });
    const keep = await Video.create(client, { video_name: "Kept" });

    await Video.delete(client, viaRest.video_id);
    expect((await client.get(`/api/v1/videos/${viaRest.video_id}`)).body.error.code).toBe("not_found");
    expect((await client.patch(`/api/v1/videos/${viaRest.video_id}`, { video_name: "x" })).status).toBe(404);

    const deleted = expectOk(await client.delete(`/api/v1/videos/${viaGql.video_id}`));
    expect(deleted).toMatchObject({ object: "video", video_id: viaGql.video_id, deleted: true });
    expect((await gqlError(client, "query($id: ID!) { video(video_id: $id) { video_id } }", { id: viaGql.video_id })).code).toBe("not_found");
    const update = await gqlError(client, 'mutation($id: ID!) { update_video(video_id: $id, input: { video_name: "x" }) { video_id } }', {
      id: viaGql.video_id,
    });
    expect(update.code).toBe("not_found");

    expect(await Video.listIds(client)).toEqual([keep.video_id]);
    expect((expectOk(await client.get("/api/v1/videos")).data as Row[]).map((v) => v.video_id)).toEqual([keep.video_id]);
  });

  it("removes a deleted folder from both surfaces and from the videos that held it", async () => {
    const { client } = await createFixture(service);
    const doomed = await Folder.create(client, { folder_name: "Doomed" });
    const kept = expectOk(await client.post("/api/v1/folders", { folder_name: "Kept" }), 201);
    const video = expectOk(await client.post("/api/v1/videos", { video_name: "Filed twice", folder_ids: [doomed.folder_id, kept.folder_id] }), 201);

    expectOk(await client.delete(`/api/v1/folders/${doomed.folder_id}`));
    expect((await gqlError(client, "query($id: ID!) { folder(folder_id: $id) { folder_id } }", { id: doomed.folder_id })).code).toBe("not_found");
    expect(await Folder.listIds(client)).toEqual([kept.folder_id]);
    expect((await Video.get(client, video.video_id)).folder_ids).toEqual([kept.folder_id]);

    await Folder.delete(client, kept.folder_id);
    expect((await client.get(`/api/v1/folders/${kept.folder_id}`)).status).toBe(404);
    expect(expectOk(await client.get("/api/v1/folders")).data).toEqual([]);
    expect(expectOk(await client.get(`/api/v1/videos/${video.video_id}`)).folder_ids).toEqual([]);
  });
});
