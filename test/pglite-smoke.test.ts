// The service on embedded PGlite (no DATABASE_URL): what `npm start` runs on a fresh checkout.
// One smoke test over real HTTP, and a restart on the same data dir to show the data persists.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, inject, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { startService, type RunningService } from "../src/service.js";
import { createApiKey } from "../src/auth/key-service.js";
import { addCredits } from "../src/credits/ledger.js";
import { createWorkspace } from "../src/workspaces/workspace-service.js";
import { Client } from "./support/service.js";
import { openDatabase } from "../src/db/database.js";
import { waitForStatus } from "./support/wait.js";

let running: RunningService | undefined;
let dataDir: string | undefined;

async function start(dir: string): Promise<RunningService> {
  running = await startService({
    ...loadConfig({}),
    port: 0,
    databaseUrl: undefined,
    redisUrl: inject("redisUrl"),
    dataDir: dir,
    printStartupKey: false,
  });
  return running;
}

async function stop(): Promise<void> {
  const service = running;
  running = undefined;
  await service?.stop();
}

afterAll(async () => {
  await stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it("serves records and renders a video on embedded PGlite, and keeps the records across a restart", { timeout: 120_000 }, async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "cutroom-pglite-"));

  // --- first start: a fresh embedded database, migrated on start ---
  let service = await start(dataDir);
  expect(service.database.kind).toBe("pglite");
  expect(existsSync(path.join(dataDir, "pglite"))).toBe(true);

  const workspaceId = await createWorkspace(service.database.prisma, "PGlite workspace");
  const { secret } = await createApiKey(service.database.prisma, { workspaceId, mode: "live", scopes: ["*:*"] });
  let client = new Client(service.url, secret);

  const health = await client.get("/api/v1/health", { key: null });
  expect(health.status).toBe(200);
  expect(health.body).toMatchObject({ object: "health", status: "ok", checks: { database: { status: "ok" }, redis: { status: "ok" } } });

  // A second opener (the key CLI, another start) is refused while the service holds the directory.
  await expect(openDatabase({ dataDir })).rejects.toThrow(/in use by process/);

  const folder = await client.post("/api/v1/folders", { folder_name: "Drafts", folder_color: "blue" });
  expect(folder.status).toBe(201);
  expect(folder.body).toMatchObject({ object: "folder", folder_name: "Drafts", folder_color: "blue", folder_scope: "video" });
  const folderId = folder.body.folder_id as string;

  const video = await client.post("/api/v1/videos", { video_name: "Cut 1", folder_ids: [folderId], config: { fps: 24 } });
  expect(video.status).toBe(201);
  expect(video.body).toMatchObject({ object: "video", video_name: "Cut 1", folder_ids: [folderId], config: { fps: 24 } });
  const videoId = video.body.video_id as string;

  expect((await client.get(`/api/v1/folders/${folderId}`)).body).toMatchObject({ folder_id: folderId, folder_name: "Drafts" });
  expect((await client.get(`/api/v1/videos/${videoId}`)).body).toMatchObject({ video_id: videoId, folder_ids: [folderId] });

  const renamedFolder = await client.patch(`/api/v1/folders/${folderId}`, { folder_name: "Final" });
  expect(renamedFolder.status).toBe(200);
  expect(renamedFolder.body).toMatchObject({ folder_name: "Final", folder_color: "blue" });
  const updatedVideo = await client.patch(`/api/v1/videos/${videoId}`, { video_comment: "approved", published: true });
  expect(updatedVideo.status).toBe(200);
  expect(updatedVideo.body).toMatchObject({ video_name: "Cut 1", video_comment: "approved", published: true, folder_ids: [folderId] });

  // A record deleted before the restart must stay deleted after it.
  const scratch = await client.post("/api/v1/videos", { video_name: "Scratch" });
  expect(scratch.status).toBe(201);
  const scratchId = scratch.body.video_id as string;
  expect((await client.delete(`/api/v1/videos/${scratchId}`)).body).toMatchObject({ video_id: scratchId, deleted: true });
  expect((await client.get(`/api/v1/videos/${scratchId}`)).status).toBe(404);

  // Actions and the in-process workers share the one embedded connection: a render is paid for,
  // queued, rendered and listed while the dispatcher and the request log write beside it.
  await service.database.prisma.$transaction((tx) => addCredits(tx, { workspaceId, amount: 20, actionType: "grant" }));
  const toRender = await client.post("/api/v1/videos", {
    video_name: "Render me",
    composition: { duration: 1, fps: 10, layers: [{ type: "tone", frequency: 440, volume: 0.2 }] },
  });
  const render = await client.post("/api/v1/actions/renders.create", { video_id: toRender.body.video_id });
  expect(render.status, render.text).toBe(200);
  expect(render.body.credits).toEqual({ cost: 10, charged: 10, balance_after: 10, held: true });
  const listed = async () => {
    const answer = await client.get(`/api/v1/actions/renders.list?video_id=${toRender.body.video_id}`);
    expect(answer.status, answer.text).toBe(200);
    return answer.body.data[0] as { render_status: string };
  };
  const rendered = await waitForStatus("the render", listed, (render) => render.render_status, ["completed", "failed"], 60_000, 200);
  expect(rendered.render_status).toBe("completed");
  expect((await client.get("/api/v1/actions/account.credits")).body).toMatchObject({ credit_balance: 10 });

  await stop();

  // --- second start on the same data dir: same records, same key ---
  const restartedAt = new Date();
  service = await start(dataDir);
  expect(service.database.kind).toBe("pglite");
  client = new Client(service.url, secret);

  const again = await client.get("/api/v1/health", { key: null });
  expect(again.body).toMatchObject({ status: "ok", checks: { database: { status: "ok" } } });

  const persistedVideo = await client.get(`/api/v1/videos/${videoId}`);
  expect(persistedVideo.status).toBe(200);
  expect(persistedVideo.body).toMatchObject({ video_name: "Cut 1", video_comment: "approved", published: true, config: { fps: 24 }, folder_ids: [folderId] });
  const persistedFolder = await client.get(`/api/v1/folders/${folderId}`);
  expect(persistedFolder.status).toBe(200);
  expect(persistedFolder.body).toMatchObject({ folder_name: "Final", folder_color: "blue" });
  expect((await client.get(`/api/v1/videos/${scratchId}`)).status).toBe(404);

  // The first run's request log was written on embedded PGlite too (flushed at stop).
  const logged = await service.database.prisma.requestLog.findMany({
    where: { workspace_id: workspaceId, route: "/api/v1/folders/{folder_id}", created_at: { lt: restartedAt } },
  });
  expect(logged.map((entry) => [entry.method, entry.status]).sort()).toEqual([
    ["GET", 200],
    ["PATCH", 200],
  ]);
  expect(logged[0]).toMatchObject({ key_id: expect.any(String), request_livemode: true, idempotent_replay: false, created_at: expect.any(Date) });

  // Writes work on the reopened database too.
  expect((await client.delete(`/api/v1/videos/${videoId}`)).body).toMatchObject({ video_id: videoId, deleted: true });
  expect((await client.delete(`/api/v1/folders/${folderId}`)).body).toMatchObject({ folder_id: folderId, deleted: true });
  expect((await client.get(`/api/v1/videos/${videoId}`)).status).toBe(404);
  expect((await client.get(`/api/v1/folders/${folderId}`)).status).toBe(404);
});
