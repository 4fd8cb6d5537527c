// Renders end to end through the API: the actions renders.create, renders.list and renders.delete
// (src/renders/actions.ts) run by the action framework, and the render worker
// (src/renders/render-job.ts) on real BullMQ, real ffmpeg and real PostgreSQL. Media are served by
// a node:http server on loopback, allow-listed for the URL guard. This file runs workers, so it has
// a database and a Redis of its own (see jobs.test.ts for why).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../src/ids.js";
import { FFMPEG_PATH } from "../src/media/binaries.js";
import { probeMedia } from "../src/media/probe.js";
import { operationJob } from "../src/operations/worker.js";
import { sweepOperationsJob } from "../src/operations/sweep.js";
import { balanceOf, funded, renderEnded } from "./support/action-calls.js";
import { isolatedEnvironment, useService, type ApiResponse, type Client } from "./support/service.js";
import { waitFor } from "./support/wait.js";

const run = promisify(execFile);
const environment = isolatedEnvironment("render-actions", { runWorkers: true, outboundAllow: ["127.0.0.1"], renderPreset: "ultrafast", dispatchIntervalMs: 60_000 });
const dataDir = environment.dataDir;
const overrides = environment.overrides;
const storageDir = path.join(dataDir, "storage");
const service = useService(overrides);
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;

// ---------------------------------------------------------------------------------------------
// Media on loopback: a PNG made with ffmpeg, and a URL where nothing listens.

let mediaServer: Server;
let mediaBase: string;
let closedPortUrl: string;
let mediaDir: string;
let png: Buffer;

beforeAll(async () => {
  mediaDir = await mkdtemp(path.join(os.tmpdir(), "cutroom-render-actions-media-"));
  const file = path.join(mediaDir, "pattern.png");
  await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=320x240:d=1", "-frames:v", "1", file]);
  png = await readFile(file);
  mediaServer = createServer((request, response) => {
    if (request.url !== "/pattern.png") return void response.writeHead(404).end("no such media");
    response.writeHead(200, { "content-type": "image/png", "content-length": String(png.length) }).end(png);
  });
  await new Promise<void>((resolve) => mediaServer.listen(0, "127.0.0.1", resolve));
  mediaBase = `http://127.0.0.1:${(mediaServer.address() as AddressInfo).port}`;

  // A port that was just free: nothing listens there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPortUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/gone.png`;
  await new Promise((resolve) => probe.close(resolve));
});
afterAll(async () => {
  mediaServer?.closeAllConnections();
  await new Promise((resolve) => mediaServer?.close(resolve));
  await rm(mediaDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------

const callAction = (client: Client, name: string, body: unknown = {}) => client.post(`/api/v1/actions/${name}`, body);
const getAction = (client: Client, name: string, query = "") => client.get(`/api/v1/actions/${name}${query}`);

function expectError(response: ApiResponse, status: number, code: string): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body?.error, response.text).toMatchObject({ code, status });
  return response.body.error as Row;
}

function expectOk(response: ApiResponse, status = 200): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body?.error, response.text).toBeUndefined();
  return response.body as Row;
}

const outbox = (workspaceId: string) => prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId }, orderBy: { seq: "asc" } });

type OutboxRow = Awaited<ReturnType<typeof outbox>>[number];

/** The render's story in the outbox: render.* events and renders.create's action events (renders.list calls add their own action.completed). */
const renderStory = (events: OutboxRow[]) =>
  events.filter((event) => event.type.startsWith("render.") || (event.type.startsWith("action.") && (event.data as Row).object?.action === "renders.create"));

/** A video made through the API, with the given composition (none when undefined). */
async function createVideo(client: Client, composition?: unknown, videoFormat = "landscape"): Promise<string> {
  const body = expectOk(await client.post("/api/v1/videos", { video_name: "render me", video_format: videoFormat, ...(composition !== undefined && { composition }) }), 201);
  return body.video_id as string;
}

/** The composition of the brief: 2 s, landscape, text + image + tone. */
const twoSecondComposition = () => ({
  duration: 2,
  fps: 24,
  background_color: "#102030",
  layers: [
    { type: "image", src: `${mediaBase}/pattern.png`, x: 100, y: 80, width: 640, height: 480, start: 0.25, end: 1.75 },
    { type: "text", text: "Rendered through the API", font_size: 72, color: "white", box_color: "#00000080", y: 900 },
    { type: "tone", frequency: 440, volume: 0.3, start: 0.5, end: 1.5 },
  ],
});

async function download(url: string, name: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("video/mp4");
  const file = path.join(mediaDir, name);
  await writeFile(file, Buffer.from(await response.arrayBuffer()));
  return file;
}

const renderJobName = operationJob("render").name;
const renderQueue = () => service.service.jobs.queue(renderJobName);

// ---------------------------------------------------------------------------------------------

describe("renders.create → worker → renders.list", () => {
  it("renders a 2 s landscape text + image + tone composition: billed 10, events, ledger, a 1920x1080 MP4 of 2 s", async () => {
    const { client, workspaceId, keyId } = await funded(service, 30);
    const videoId = await createVideo(client, twoSecondComposition());

    const created = expectOk(await callAction(client, "renders.create", { video_id: videoId }));
    expect(created).toMatchObject({
      object: "render",
      video_id: videoId,
      video_format: "landscape",
      render_status: "queued",
      credits_consumed: 10,
      output_url: null,
      livemode: true,
      credits: { cost: 10, charged: 10, balance_after: 20, held: true },
    });
    const renderId = created.render_id as string;
    expect(renderId).toMatch(/^rnd_/);
    expect(created).not.toHaveProperty("workspace_id");
    expect(created).not.toHaveProperty("output_key");
    expect(await balanceOf(service, workspaceId)).toBe(20);

    const render = await renderEnded(client, videoId, renderId);
    expect(render.error_message ?? null, render.error_message).toBeNull();
    expect(render).toMatchObject({ object: "render", render_id: renderId, render_status: "completed", progress: 100, error_code: null });
    expect(render.output_url).toMatch(new RegExp(`/files/renders/${workspaceId}/${renderId}\\.mp4\\?expires=\\d+&signature=[0-9a-f]{64}$`));

    // What ffprobe sees in the file served at output_url.
    const probe = await probeMedia(await download(render.output_url, `${renderId}.mp4`));
    expect(Math.abs(probe.duration! - 2)).toBeLessThanOrEqual(0.1);
    const videoStreams = probe.streams.filter((stream) => stream.codec_type === "video");
    const audioStreams = probe.streams.filter((stream) => stream.codec_type === "audio");
    expect(videoStreams).toHaveLength(1);
    expect(audioStreams).toHaveLength(1);
    expect(videoStreams[0]).toMatchObject({ width: 1920, height: 1080 });

    // The outbox: the action's own event in its transaction, then the worker's.
    const events = renderStory(await outbox(workspaceId));
    expect(events.map((event) => event.type)).toEqual(["action.completed", "render.started", "render.completed"]);
    const completedAction = events.find((event) => event.type === "action.completed")!;
    expect((completedAction.data as Row).object).toMatchObject({ action: "renders.create", key_id: keyId, credits_spent: 10, result_object: "render" });
    const renderCompleted = events.find((event) => event.type === "render.completed")!;
    expect((renderCompleted.data as Row).object).toMatchObject({ object: "render", render_id: renderId, render_status: "completed", output_url: expect.stringContaining(`/files/renders/${workspaceId}/${renderId}.mp4?`) });
    // Every event carries the id of the request that queued the render.
    for (const event of events) expect(event.request_id, event.type).toBe(created.request_id);

    // The ledger: the grant, then one spend of 10 naming the render.
    const ledger = await prisma().creditTransaction.findMany({ where: { workspace_id: workspaceId }, orderBy: { created_at: "asc" } });
    expect(ledger.map((row) => [row.action_type, row.amount])).toEqual([["grant", 30], ["renders.create", -10]]);
    expect(ledger[1]).toMatchObject({ balance_after: 20, reference_id: renderId, key_id: keyId, request_id: created.request_id });
    expect(await balanceOf(service, workspaceId)).toBe(20);
  });
});

describe("renders.create failures", () => {
  it("an unreachable image: the render fails with media_unreachable, render.failed, and the 10 credits come back", async () => {
    const { client, workspaceId } = await funded(service, 30);
    const videoId = await createVideo(client, { duration: 1, layers: [{ type: "image", src: closedPortUrl, width: 100, height: 100 }] });
    const created = expectOk(await callAction(client, "renders.create", { video_id: videoId }));
    expect(created.credits).toEqual({ cost: 10, charged: 10, balance_after: 20, held: true });
    const renderId = created.render_id as string;

    const render = await renderEnded(client, videoId, renderId);
    expect(render).toMatchObject({ render_status: "failed", error_code: "media_unreachable", output_url: null });
    expect(render.error_message).toMatch(/^composition\.layers\.0\.src: /);

    const events = renderStory(await outbox(workspaceId));
    expect(events.map((event) => event.type)).toEqual(["action.completed", "render.started", "render.failed"]);
    expect(events.at(-1)!.data).toMatchObject({ object: { render_id: renderId, render_status: "failed", error_code: "media_unreachable" }, credits_refunded: 10 });

    expect(await balanceOf(service, workspaceId)).toBe(30);
    const refunds = await prisma().creditTransaction.findMany({ where: { workspace_id: workspaceId, action_type: "refund" } });
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 10, balance_after: 30, reference_id: renderId, metadata: { kind: "release", credits_held: 10, credits_spent: 0 } });
    // The account's own view agrees.
    expect(expectOk(await getAction(client, "account.credits")).credit_balance).toBe(30);
  });

  it("insufficient credits (balance 5): 402 with required / available / shortfall, credits.low and action.failed, no render", async () => {
    const { client, workspaceId } = await funded(service, 5);
    const videoId = await createVideo(client, twoSecondComposition());
    const error = expectError(await callAction(client, "renders.create", { video_id: videoId }), 402, "insufficient_credits");
    expect(error).toMatchObject({ type: "billing_error", retryable: false });
    expect(error.details).toMatchObject({ required: 10, available: 5, shortfall: 5, action_type: "renders.create" });

    expect(await prisma().render.count({ where: { workspace_id: workspaceId } })).toBe(0);
    expect(await balanceOf(service, workspaceId)).toBe(5);
    const events = (await outbox(workspaceId)).filter((event) => event.type !== "video.created");
    expect(events.map((event) => event.type).sort()).toEqual(["action.failed", "credits.low"]);
    expect(events.find((event) => event.type === "credits.low")!.data).toMatchObject({ object: { object: "credits_low", required: 10, available: 5, shortfall: 5, action_type: "renders.create" } });
    expect(events.find((event) => event.type === "action.failed")!.data).toMatchObject({ object: { action: "renders.create", error: { code: "insufficient_credits", status: 402 } } });
    expect(await prisma().creditTransaction.count({ where: { workspace_id: workspaceId, action_type: "renders.create" } })).toBe(0);
  });

  it("two calls racing for the last 10 credits: one render, one 402, a balance of 0", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const videoId = await createVideo(client, { duration: 1, fps: 10, layers: [{ type: "text", text: "race" }] });
    const answers = await Promise.all([0, 1].map(() => callAction(client, "renders.create", { video_id: videoId })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses, answers.map((answer) => answer.text).join("\n")).toEqual([200, 402]);
    const refused = answers.find((answer) => answer.status === 402)!;
    expect(refused.body.error.details).toMatchObject({ required: 10, available: 0, shortfall: 10 });
    const won = answers.find((answer) => answer.status === 200)!.body as Row;
    expect(won.credits).toEqual({ cost: 10, charged: 10, balance_after: 0, held: true });

    expect(await balanceOf(service, workspaceId)).toBe(0);
    expect((await prisma().render.findMany({ where: { workspace_id: workspaceId } })).map((row) => row.render_id)).toEqual([won.render_id]);
    expect(await prisma().creditTransaction.count({ where: { workspace_id: workspaceId, action_type: "renders.create" } })).toBe(1);
    const types = renderStory(await outbox(workspaceId)).map((event) => event.type).filter((type) => type.startsWith("action."));
    expect(types.sort()).toEqual(["action.completed", "action.failed"]);
    expect((await outbox(workspaceId)).filter((event) => event.type === "credits.low")).toHaveLength(1);
    // The winner renders; nothing else was queued.
    expect((await renderEnded(client, videoId, won.render_id)).render_status).toBe("completed");
  });

  it("a render whose queueing fails after commit is still one paid call, and the sweep queues it again", async () => {
    const { client, workspaceId } = await funded(service, 30);
    const videoId = await createVideo(client, { duration: 1, fps: 10, layers: [{ type: "text", text: "lost" }] });
    const jobs = service.service.jobs;
    // A real failure of the real queue: its Redis connection is gone when the render is queued.
    await jobs.queue(renderJobName).close();
    let response: ApiResponse;
    try {
      response = await callAction(client, "renders.create", { video_id: videoId });
    } finally {
      await jobs.forget(renderJobName);
    }
    // The call committed: it answers success, once, and is charged once.
    expect(response.status, response.text).toBe(200);
    expect(response.body.credits).toEqual({ cost: 10, charged: 10, balance_after: 20, held: true });
    const events = renderStory(await outbox(workspaceId)).filter((event) => event.type.startsWith("action."));
    expect(events.map((event) => event.type)).toEqual(["action.completed"]);
    expect((await prisma().render.findUniqueOrThrow({ where: { render_id: response.body.render_id } })).render_status).toBe("queued");

    // The sweep finds its operation (made to look a minute old) and queues it; the workers render it.
    await prisma().operation.updateMany({ where: { subject_id: response.body.render_id }, data: { updated_at: new Date(Date.now() - 120_000) } });
    await jobs.enqueue(sweepOperationsJob, {});
    expect((await renderEnded(client, videoId, response.body.render_id)).render_status).toBe("completed");
  });

  it("deleting a render still queued cancels its operation and gives the 10 credits back", async () => {
    const { client, workspaceId } = await funded(service, 30);
    const videoId = await createVideo(client, { duration: 1, fps: 10, layers: [{ type: "text", text: "never drawn" }] });
    const jobs = service.service.jobs;
    // Its job is never queued (the queue's connection is gone), so it stays queued.
    await jobs.queue(renderJobName).close();
    let renderId: string;
    try {
      renderId = expectOk(await callAction(client, "renders.create", { video_id: videoId })).render_id as string;
    } finally {
      await jobs.forget(renderJobName);
    }
    expect(await balanceOf(service, workspaceId)).toBe(20);
    const deleted = expectOk(await callAction(client, "renders.delete", { render_id: renderId }));
    expect(deleted).toMatchObject({ render_id: renderId, deleted: true, credits_refunded: 10 });
    expect(await balanceOf(service, workspaceId)).toBe(30);
    expect(await prisma().operation.findFirstOrThrow({ where: { subject_id: renderId } })).toMatchObject({ status: "canceled", credits_held: 10, credits_spent: 0 });
    const ledger = await prisma().creditTransaction.findMany({ where: { workspace_id: workspaceId }, orderBy: { created_at: "asc" } });
    expect(ledger.map((row) => [row.action_type, row.amount])).toEqual([["grant", 30], ["renders.create", -10], ["refund", 10]]);
    // A later sweep has nothing to queue: the operation is no longer queued.
    await prisma().operation.updateMany({ where: { subject_id: renderId }, data: { updated_at: new Date(Date.now() - 120_000) } });
    const sweep = await jobs.enqueue(sweepOperationsJob, {});
    await waitFor("the sweep to finish", async () => ["completed", "failed"].includes(await sweep.getState()), 10_000);
    expect(sweep.returnvalue ?? (await jobs.queue(sweepOperationsJob.name).getJob(sweep.id!))?.returnvalue).toMatchObject({ requeued: 0 });
    expect(await prisma().operation.findFirstOrThrow({ where: { subject_id: renderId } })).toMatchObject({ status: "canceled" });
  });

  it("a video without composition is 422; nothing is spent or written", async () => {
    const { client, workspaceId } = await funded(service, 30);
    const videoId = await createVideo(client);
    const error = expectError(await callAction(client, "renders.create", { video_id: videoId }), 422, "validation_failed");
    expect(error.details.issues[0]).toMatchObject({ path: "composition", type: "any.required" });
    // A composition that does not parse is refused when the video is saved (the timeline model)...
    const refused = expectError(await client.post("/api/v1/videos", { composition: { duration: 1, layers: [{ type: "sparkle" }] } }), 422, "validation_failed");
    expect(refused.details.issues[0]).toMatchObject({ path: "composition.layers.0.type", type: "any.only" });
    // ...and one stored before the model existed is a 422 at render, before anything is queued.
    const broken = await createVideo(client);
    await prisma().video.update({ where: { video_id: broken }, data: { composition: { duration: 1, layers: [{ type: "sparkle" }] } } });
    const invalid = expectError(await callAction(client, "renders.create", { video_id: broken }), 422, "validation_failed");
    expect(invalid.details.issues[0].path).toMatch(/^composition\.layers\.0/);

    expect(await prisma().render.count({ where: { workspace_id: workspaceId } })).toBe(0);
    expect(await balanceOf(service, workspaceId)).toBe(30);
    const types = (await outbox(workspaceId)).map((event) => event.type).filter((type) => type !== "video.created");
    expect(types).toEqual(["action.failed", "action.failed"]);
  });

  it("another workspace's video is 403 workspace_mismatch", async () => {
    const owner = await funded(service, 0);
    const videoId = await createVideo(owner.client, twoSecondComposition());
    const intruder = await funded(service, 30);
    const error = expectError(await callAction(intruder.client, "renders.create", { video_id: videoId }), 403, "workspace_mismatch");
    expect(error.param).toBe("video_id");
    expect(await prisma().render.count({ where: { video_id: videoId } })).toBe(0);
    expect(await balanceOf(service, intruder.workspaceId)).toBe(30);
    // An unknown video is a 404.
    expectError(await callAction(intruder.client, "renders.create", { video_id: "vid_doesnotexist00000000" }), 404, "not_found");
  });

  it("a test key reports the cost, charges nothing, writes nothing and queues nothing", async () => {
    const live = await funded(service, 30);
    const videoId = await createVideo(live.client, twoSecondComposition());
    const test = await live.newKey({ mode: "test" });
    const eventsBefore = (await outbox(live.workspaceId)).length;
    const countsBefore = await renderQueue().getJobCounts();

    const response = await callAction(test.client, "renders.create", { video_id: videoId });
    const simulated = expectOk(response);
    expect(response.headers.get("x-test-mode")).toBe("true");
    expect(simulated).toMatchObject({ object: "render", render_status: "queued", livemode: false, credits: { cost: 10, charged: 0, balance_after: null, held: false } });

    expect(await prisma().render.count({ where: { workspace_id: live.workspaceId } })).toBe(0);
    expect(await prisma().render.findUnique({ where: { render_id: simulated.render_id } })).toBeNull();
    expect(await outbox(live.workspaceId)).toHaveLength(eventsBefore);
    expect(await balanceOf(service, live.workspaceId)).toBe(30);
    expect(await prisma().creditTransaction.count({ where: { workspace_id: live.workspaceId } })).toBe(1); // the grant
    expect(await renderQueue().getJob(simulated.render_id)).toBeUndefined();
    expect(await renderQueue().getJobCounts()).toEqual(countsBefore);

    // The format may be chosen per render; an unknown one is refused by the catalog's enum.
    expect(expectOk(await callAction(test.client, "renders.create", { video_id: videoId, video_format: "square" }))).toMatchObject({ video_format: "square" });
    const badFormat = expectError(await callAction(test.client, "renders.create", { video_id: videoId, video_format: "diagonal" }), 422, "validation_failed");
    expect(badFormat.details.issues[0]).toMatchObject({ path: "video_format", type: "any.only" });
    expect(await renderQueue().getJobCounts()).toEqual(countsBefore);

    // A test key is not refused for want of credits either: it spends nothing.
    const poor = await funded(service, 0);
    const poorVideo = await createVideo(poor.client, twoSecondComposition());
    const poorTest = await poor.newKey({ mode: "test" });
    expect(expectOk(await callAction(poorTest.client, "renders.create", { video_id: poorVideo })).credits).toEqual({ cost: 10, charged: 0, balance_after: null, held: false });
    expect(await outbox(poor.workspaceId)).toHaveLength(1); // video.created only
  });
});

describe("renders.list", () => {
  it("shows each video's latest render by default, and every render with all_renders=true", async () => {
    const { client, workspaceId } = await funded(service, 0);
    const first = await createVideo(client, twoSecondComposition());
    const second = await createVideo(client, twoSecondComposition());
    const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, seconds));
    const rows = [
      { render_id: newId("render"), video_id: first, render_status: "failed", render_creation_date: at(1) },
      { render_id: newId("render"), video_id: first, render_status: "completed", render_creation_date: at(3) },
      { render_id: newId("render"), video_id: second, render_status: "failed", render_creation_date: at(2) },
    ];
    await prisma().render.createMany({ data: rows.map((row) => ({ ...row, workspace_id: workspaceId, video_format: "landscape" })) });
    const [oldFirst, newFirst, onlySecond] = rows.map((row) => row.render_id);

    const latest = expectOk(await getAction(client, "renders.list"));
    expect(latest).toMatchObject({ object: "list", page: 1, limit: 25, has_more: false });
    expect((latest.data as Row[]).map((row) => row.render_id)).toEqual([newFirst, onlySecond]);

    const all = expectOk(await getAction(client, "renders.list", "?all_renders=true"));
    expect((all.data as Row[]).map((row) => row.render_id)).toEqual([newFirst, onlySecond, oldFirst]);

    // Filters and paging, decoded from the query string.
    const ofFirst = expectOk(await getAction(client, "renders.list", `?video_id=${first}&all_renders=true`));
    expect((ofFirst.data as Row[]).map((row) => row.render_id)).toEqual([newFirst, oldFirst]);
    const failed = expectOk(await getAction(client, "renders.list", "?all_renders=true&render_status=failed"));
    expect((failed.data as Row[]).map((row) => row.render_id)).toEqual([onlySecond, oldFirst]);
    const page = expectOk(await getAction(client, "renders.list", "?all_renders=true&limit=2&page=2"));
    expect(page).toMatchObject({ page: 2, limit: 2, has_more: false });
    expect((page.data as Row[]).map((row) => row.render_id)).toEqual([oldFirst]);
    // Paging the default view pages the latest renders, not the rows under them.
    const firstPage = expectOk(await getAction(client, "renders.list", "?limit=1"));
    expect(firstPage).toMatchObject({ page: 1, limit: 1, has_more: true });
    expect((firstPage.data as Row[]).map((row) => row.render_id)).toEqual([newFirst]);
    const secondPage = expectOk(await getAction(client, "renders.list", "?limit=1&page=2"));
    expect(secondPage).toMatchObject({ page: 2, limit: 1, has_more: false });
    expect((secondPage.data as Row[]).map((row) => row.render_id)).toEqual([onlySecond]);
    expectError(await getAction(client, "renders.list", "?limit=101"), 422, "validation_failed");

    // Cursor paging walks the same lists: next_cursor until has_more is false, latest renders
    // and every render alike; page and cursor together are refused.
    for (const [query, expected] of [["", [newFirst, onlySecond]], ["&all_renders=true", [newFirst, onlySecond, oldFirst]]] as const) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const walked: Row = expectOk(await getAction(client, "renders.list", `?limit=1${query}${cursor ? `&cursor=${cursor}` : ""}`));
        seen.push(...(walked.data as Row[]).map((row) => row.render_id as string));
        expect(walked.page).toBe(cursor ? null : 1);
        cursor = walked.has_more ? (walked.next_cursor as string) : null;
        if (!walked.has_more) expect(walked.next_cursor).toBeNull();
      } while (cursor);
      expect(seen).toEqual(expected);
    }
    const withCursor = expectOk(await getAction(client, "renders.list", "?limit=1")).next_cursor as string;
    expect(expectError(await getAction(client, "renders.list", `?limit=1&page=2&cursor=${withCursor}`), 400, "invalid_request").param).toBe("page");
    expect(expectError(await getAction(client, "renders.list", "?cursor=bm90LWEtY3Vyc29y"), 400, "invalid_request").param).toBe("cursor");

    // Another workspace sees none of them.
    const other = await funded(service, 0);
    expect(expectOk(await getAction(other.client, "renders.list")).data).toEqual([]);
    expectError(await getAction(other.client, "renders.list", `?video_id=${first}`), 403, "workspace_mismatch");
  });
});

describe("renders.delete", () => {
  it("removes the row and the stored file: output_url then answers 404", async () => {
    const fixture = await funded(service, 10);
    const { client, workspaceId } = fixture;
    const videoId = await createVideo(client, { duration: 1, fps: 10, layers: [{ type: "text", text: "delete me" }] });
    const renderId = expectOk(await callAction(client, "renders.create", { video_id: videoId })).render_id as string;
    const render = await renderEnded(client, videoId, renderId);
    expect(render.render_status, render.error_message).toBe("completed");
    const stored = path.join(storageDir, "renders", workspaceId, `${renderId}.mp4`);
    expect((await stat(stored)).size).toBeGreaterThan(0);
    expect((await fetch(render.output_url)).status).toBe(200);

    // A test key's delete is simulated: the row and the file stay.
    const test = await fixture.newKey({ mode: "test" });
    expect(expectOk(await callAction(test.client, "renders.delete", { render_id: renderId }))).toMatchObject({ render_id: renderId, deleted: true, livemode: false });
    expect(await prisma().render.count({ where: { render_id: renderId } })).toBe(1);
    expect((await fetch(render.output_url)).status).toBe(200);

    const deleted = expectOk(await callAction(client, "renders.delete", { render_id: renderId }));
    expect(deleted).toMatchObject({ object: "render", render_id: renderId, deleted: true });
    expect(deleted).not.toHaveProperty("credits");
    expect(await prisma().render.findUnique({ where: { render_id: renderId } })).toBeNull();

    const gone = await fetch(render.output_url);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as Row).error).toMatchObject({ code: "not_found" });
    await expect(stat(stored)).rejects.toMatchObject({ code: "ENOENT" });
    // Deleting refunds nothing; deleting again is a 404.
    expect(await balanceOf(service, workspaceId)).toBe(0);
    expectError(await callAction(client, "renders.delete", { render_id: renderId }), 404, "not_found");
    expect((await getAction(client, "renders.list", "?all_renders=true")).body.data).toEqual([]);
  });

  it("refuses to delete a render that is rendering: 409 conflict, the row stays", async () => {
    const { client, workspaceId } = await funded(service, 0);
    const videoId = await createVideo(client, twoSecondComposition());
    const renderId = newId("render");
    await prisma().render.create({ data: { render_id: renderId, workspace_id: workspaceId, video_id: videoId, render_status: "rendering", render_started_at: new Date() } });

    const error = expectError(await callAction(client, "renders.delete", { render_id: renderId }), 409, "conflict");
    expect(error).toMatchObject({ param: "render_id", retryable: true });
    expect(await prisma().render.findUnique({ where: { render_id: renderId } })).toMatchObject({ render_status: "rendering" });
    const failed = (await outbox(workspaceId)).filter((event) => event.type.startsWith("action."));
    expect(failed.map((event) => event.type)).toEqual(["action.failed"]);
    expect(failed[0]!.data).toMatchObject({ object: { action: "renders.delete", error: { code: "conflict" } } });

    // Once it is no longer rendering it can go.
    await prisma().render.update({ where: { render_id: renderId }, data: { render_status: "failed" } });
    expectOk(await callAction(client, "renders.delete", { render_id: renderId }));
    expect(await prisma().render.count({ where: { render_id: renderId } })).toBe(0);
  });
});
