// Videos and folders end to end: create -> get -> update -> delete through REST and through
// GraphQL, each surface seeing the other's writes.
import { describe, expect, it } from "vitest";
import { createFixture, useService } from "./support/service.js";

const service = useService();

describe("videos over REST", () => {
  it("creates, reads, updates (PATCH and the POST alias) and deletes a video", async () => {
    const { client } = await createFixture(service);

    const created = await client.post("/api/v1/videos", { video_name: "Launch teaser", video_format: "portrait", config: { fps: 30 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: "video",
      video_name: "Launch teaser",
      video_format: "portrait",
      config: { fps: 30 },
      folder_ids: [],
      livemode: true,
    });
    expect(created.body.video_id).toMatch(/^vid_[0-9A-Za-z]{22}$/);
    expect(created.body.request_id).toBe(created.headers.get("x-request-id"));
    const id = created.body.video_id as string;

    const fetched = await client.get(`/api/v1/videos/${id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toMatchObject({ object: "video", video_id: id, video_name: "Launch teaser" });

    const patched = await client.patch(`/api/v1/videos/${id}`, { video_comment: "first cut", published: true });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ video_name: "Launch teaser", video_comment: "first cut", published: true });

    const aliased = await client.post(`/api/v1/videos/${id}`, { video_comment: null });
    expect(aliased.status).toBe(200);
    expect(aliased.body.video_comment).toBeNull();
    expect(aliased.body.published).toBe(true);

    const deleted = await client.delete(`/api/v1/videos/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ object: "video", video_id: id, deleted: true });

    const gone = await client.get(`/api/v1/videos/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe("not_found");
  });

  it("ignores identity, ownership and timestamps sent on create", async () => {
    const { client, keyId } = await createFixture(service);
    const created = await client.post("/api/v1/videos", {
      video_id: "vid_chosen_by_client",
      video_user_id: "someone_else",
      video_created_at: "2001-01-01T00:00:00Z",
      workspace_id: "ws_other",
      video_name: "Mine",
    });
    expect(created.status).toBe(201);
    expect(created.body.video_id).not.toBe("vid_chosen_by_client");
    expect(created.body.video_user_id).toBe(keyId);
    expect(new Date(created.body.video_created_at).getFullYear()).toBeGreaterThan(2020);
  });
});
