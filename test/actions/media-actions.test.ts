// The media actions end to end, through the real provider adapters against the stand-in and real
// workers: tools.generate_from_prompt (an image stored and served through a signed link as
// image/png), tools.image_to_prompt and playground.image_to_prompt (vision), images.generate (a
// `generations` row, generation.completed / generation.failed with the credits already spent) and
// music.generate + music.get_task (an operation, music.completed with hosted tracks, music.failed
// refunding). This file runs workers, so it has a database and a Redis of its own.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FFMPEG_PATH } from "../../src/media/binaries.js";
import { readPng, probeBytes } from "../support/provider-standin/inspect.js";
import { loadConfig } from "../../src/config.js";
import { createStorage } from "../../src/storage/from-config.js";
import { putBytes } from "../../src/storage/storage.js";
import { enqueueOperation } from "../../src/operations/worker.js";
import { imageGenerationOperation } from "../../src/images/image-generation.js";
import { isolatedEnvironment, useService, useStandIn, type Client } from "../support/service.js";
import { balanceOf, funded, ok, refused } from "../support/action-calls.js";
import { waitFor } from "../support/wait.js";

const run = promisify(execFile);
const environment = isolatedEnvironment("media-actions", { runWorkers: true, dispatchIntervalMs: 60_000 });
const overrides = environment.overrides;
const providers = useStandIn(overrides, { CUTROOM_PROVIDER_MAX_RETRIES: "0" });
const service = useService(overrides);
const prisma = () => service.service.database.prisma;
const standIn = () => providers.standIn;

type Row = Record<string, any>;

// A real PNG and a text file on loopback (the URL guard allows 127.0.0.1 here).
let server: Server;
let pngUrl = "";
let textUrl = "";
let png: Buffer;
beforeAll(async () => {
  const { stdout } = await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=s=96x64", "-frames:v", "1", "-f", "image2pipe", "-c:v", "png", "-"], { encoding: "buffer", maxBuffer: 1 << 20 });
  png = stdout;
  server = createServer((request, response) => {
    if (request.url === "/photo.png") return void response.writeHead(200, { "content-type": "image/png" }).end(png);
    response.writeHead(200, { "content-type": "text/plain" }).end("not an image");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pngUrl = `${base}/photo.png`;
  textUrl = `${base}/notes.txt`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

const ledger = (workspaceId: string) => prisma().creditTransaction.findMany({ where: { workspace_id: workspaceId }, orderBy: [{ created_at: "asc" }, { transaction_id: "asc" }] });
const eventsOf = (workspaceId: string, prefix: string) => prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type: { startsWith: prefix } }, orderBy: { seq: "asc" } });

async function download(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get("content-type"), bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("tools.generate_from_prompt", () => {
  it("draws one image, stores it, and answers a signed link served as image/png; the generation is recorded", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const body = ok(await client.post("/api/v1/actions/tools.generate_from_prompt", { prompt: "A red fox at dawn, watercolour", size: "512x512", quality: "low" }));
    expect(body).toMatchObject({ object: "generated_image", content_type: "image/png", model: "openai/gpt-image-1", size: "512x512", quality: "low", credits: { cost: 4, charged: 4, balance_after: 6 } });
    expect(body.url).toMatch(/\/files\/generations\/.+\/0\.png\?expires=\d+&signature=[0-9a-f]{64}$/);
    const file = await download(body.url);
    expect(file.status).toBe(200);
    expect(file.type).toBe("image/png");
    expect(file.bytes.length).toBe(body.size_bytes);
    expect(readPng(new Uint8Array(file.bytes))).toMatchObject({ width: 512, height: 512 });
    const call = standIn().calls("openai.images.generations").at(-1)!;
    expect(call.summary).toMatchObject({ prompt: "A red fox at dawn, watercolour", size: "512x512", quality: "low", n: 1 });

    const generation = await prisma().generation.findUniqueOrThrow({ where: { generation_id: body.generation_id } });
    expect(generation).toMatchObject({ workspace_id: workspaceId, agent_type: "image", status: "completed", prompt: "A red fox at dawn, watercolour", credits_consumed: 4, output_urls: [body.url] });
    // Through the generations resource too, and as generation.completed.
    expect(ok(await client.get(`/api/v1/generations/${body.generation_id}`))).toMatchObject({ generation_id: body.generation_id, status: "completed" });
    const events = await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type: "generation.completed" } });
    expect(events.map((event) => (event.data as Record<string, any>).object.generation_id)).toEqual([body.generation_id]);
    expect((await ledger(workspaceId)).map((row) => [row.action_type, row.amount, row.reference_id])).toEqual([["grant", 10, null], ["tools.generate_from_prompt", -4, body.generation_id]]);
  });

  it("refuses a model this deployment cannot run, listing those it can, before anything is spent", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const error = refused(await client.post("/api/v1/actions/tools.generate_from_prompt", { prompt: "A fox", model: "acme/paint-9000" }), 422, "validation_failed");
    expect(error.details.issues[0]).toMatchObject({ path: "model", type: "any.only", allowed: expect.arrayContaining(["openai/gpt-image-1"]) });
    expect(refused(await client.post("/api/v1/actions/tools.generate_from_prompt", { prompt: "A fox", size: "7x7" }), 422, "validation_failed").param).toBe("size");
    expect(await balanceOf(service, workspaceId)).toBe(10);
    // A usable model other than the configured one is run when named.
    const body = ok(await client.post("/api/v1/actions/tools.generate_from_prompt", { prompt: "A fox", model: "openai/dall-e-3" }));
    expect(body.model).toBe("openai/dall-e-3");
    expect(standIn().calls("openai.images.generations").at(-1)!.model).toBe("dall-e-3");
  });
});

describe("image to prompt", () => {
  it("tools.image_to_prompt reads an inline image with the vision model; a declared type that lies is refused", async () => {
    const { client } = await funded(service, 10);
    const before = standIn().calls("openai.chat").length;
    const body = ok(await client.post("/api/v1/actions/tools.image_to_prompt", { image_base64: png.toString("base64"), media_type: "image/png" }));
    expect(body).toMatchObject({ object: "image_prompt", prompt: expect.any(String), credits: { cost: 1, charged: 1 } });
    const vision = standIn().calls("openai.chat").slice(before);
    expect(vision).toHaveLength(1);
    expect(vision[0]!.summary).toMatchObject({ images: 1, schema_name: "image_prompt" });

    const lie = refused(await client.post("/api/v1/actions/tools.image_to_prompt", { image_base64: png.toString("base64"), media_type: "image/jpeg" }), 422, "validation_failed");
    expect(lie.param).toBe("media_type");
    const notImage = refused(await client.post("/api/v1/actions/tools.image_to_prompt", { image_base64: Buffer.from("hello").toString("base64") }), 422, "validation_failed");
    expect(notImage.param).toBe("image_base64");
  });

  it("playground.image_to_prompt fetches the URL through the guard; a page that is no image is 422 and its hold comes back", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const body = ok(await client.post("/api/v1/actions/playground.image_to_prompt", { image_url: pngUrl }));
    expect(body).toMatchObject({ object: "image_prompt", credits: { charged: 1 } });
    expect(await balanceOf(service, workspaceId)).toBe(9);

    refused(await client.post("/api/v1/actions/playground.image_to_prompt", { image_url: textUrl }), 422, "validation_failed");
    const blocked = refused(await client.post("/api/v1/actions/playground.image_to_prompt", { image_url: "https://10.1.2.3/photo.png" }), 422, "validation_failed");
    expect(blocked.message).toMatch(/could not be fetched/);
    expect(await balanceOf(service, workspaceId)).toBe(9);
  });
});

/** An image agent of the workspace. */
async function imageAgent(client: Client): Promise<string> {
  const created = await client.post("/api/v1/agents", { agent_name: "Painter", agent_type: "image", agent_prompt_template: "A watercolour of {{subject}}", agent_settings: { size: "256x256" } });
  expect(created.status, created.text).toBe(201);
  return created.body.agent_id as string;
}

async function finishedGeneration(generationId: string) {
  return waitFor("the generation to finish", async () => {
    const row = await prisma().generation.findUniqueOrThrow({ where: { generation_id: generationId } });
    return row.status === "completed" || row.status === "failed" ? row : undefined;
  }, 30_000, 100);
}

describe("images.generate", () => {
  it("queues the agent's images, holds 4 per image, and completes with every image stored and generation.completed", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const agentId = await imageAgent(client);
    const created = ok(await client.post("/api/v1/actions/images.generate", { agent_id: agentId, variables: { subject: "a lighthouse" }, count: 2 }));
    expect(created).toMatchObject({ object: "generation", status: "pending", agent_id: agentId, prompt: "A watercolour of a lighthouse", credits_consumed: 8, credits: { cost: 8, charged: 8, balance_after: 12, held: true } });

    const done = await finishedGeneration(created.generation_id);
    expect(done).toMatchObject({ status: "completed", credits_consumed: 8, error_message: null });
    expect(done.output_urls).toHaveLength(2);
    for (const url of done.output_urls) {
      const file = await download(url);
      expect(file.type).toBe("image/png");
      expect(readPng(new Uint8Array(file.bytes))).toMatchObject({ width: 256, height: 256 });
    }
    const events = await eventsOf(workspaceId, "generation.");
    expect(events.map((event) => event.type)).toEqual(["generation.completed"]);
    expect((events[0]!.data as Row).object).toMatchObject({ generation_id: created.generation_id, status: "completed", output_urls: done.output_urls });
    expect(await balanceOf(service, workspaceId)).toBe(12);
    // The hold's ledger row names the operation and books both image calls.
    const hold = (await ledger(workspaceId)).find((row) => row.action_type === "images.generate")!;
    expect(hold).toMatchObject({ amount: -8, reference_id: created.generation_id });
    expect((hold.metadata as Row).usage.filter((call: Row) => call.capability === "image")).toHaveLength(2);
  });

  it("a failure after the first image keeps it, reports the 4 credits already spent, and refunds the other 4", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const agentId = await imageAgent(client);
    standIn().failNext("openai.images.generations", { status: 500, after: 1 });
    const created = ok(await client.post("/api/v1/actions/images.generate", { agent_id: agentId, variables: { subject: "a comet" }, count: 2 }));
    const done = await finishedGeneration(created.generation_id);
    expect(done).toMatchObject({ status: "failed", credits_consumed: 4 });
    expect(done.output_urls).toHaveLength(1);
    expect(done.error_message).toMatch(/^upstream_error: /);
    const failed = (await eventsOf(workspaceId, "generation.")).map((event) => [event.type, event.data as Row]);
    expect(failed).toHaveLength(1);
    expect(failed[0]![0]).toBe("generation.failed");
    expect(failed[0]![1]).toMatchObject({ object: { generation_id: created.generation_id, status: "failed" }, credits_consumed: 4, credits_refunded: 4, error_code: "upstream_error" });
    expect(await balanceOf(service, workspaceId)).toBe(16);
    expect((await ledger(workspaceId)).map((row) => [row.action_type, row.amount])).toEqual([["grant", 20], ["images.generate", -8], ["refund", 4]]);
  });

  it("refuses what it cannot run before anything is held: another type of agent, a missing variable", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const video = await client.post("/api/v1/agents", { agent_name: "Director", agent_type: "video" });
    expect(refused(await client.post("/api/v1/actions/images.generate", { agent_id: video.body.agent_id }), 422, "validation_failed").param).toBe("agent_id");
    const agentId = await imageAgent(client);
    const missing = refused(await client.post("/api/v1/actions/images.generate", { agent_id: agentId }), 422, "validation_failed");
    expect(missing.details.issues[0]).toMatchObject({ path: "variables.subject", type: "any.required" });
    expect(await balanceOf(service, workspaceId)).toBe(20);
    expect(await prisma().generation.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });
});

describe("music.generate and music.get_task", () => {
  it("queues a song, hosts its track, emits music.completed; get_task shows progress and fresh links", async () => {
    const { client, workspaceId } = await funded(service, 30);
    const created = ok(await client.post("/api/v1/actions/music.generate", { prompt: "A calm piano loop", title: "Morning" }));
    expect(created).toMatchObject({ object: "music_generation", status: "pending", title: "Morning", provider: "fal", model_id: "fal-ai/ace-step", credits_consumed: 10, credits: { cost: 10, charged: 10, held: true } });
    const id = created.generation_id as string;
    const pending = ok(await client.get(`/api/v1/actions/music.get_task?generation_id=${id}`));
    expect(pending.progress).toBeGreaterThanOrEqual(0);

    const done = await waitFor("the song", async () => {
      const task = ok(await client.get(`/api/v1/actions/music.get_task?generation_id=${id}`));
      return task.status === "completed" || task.status === "failed" ? task : undefined;
    }, 30_000, 100);
    expect(done).toMatchObject({ status: "completed", progress: 100, credits_consumed: 10, error_message: null });
    expect(done.tracks).toHaveLength(1);
    const track = done.tracks[0];
    expect(track).toMatchObject({ track_id: `${id}_0`, index: 0, title: "Morning", content_type: expect.stringMatching(/^audio\//) });
    expect(track).not.toHaveProperty("key");
    const audio = await download(track.url);
    expect(audio.status).toBe(200);
    expect(audio.bytes.length).toBe(track.size_bytes);
    const probe = await probeBytes(new Uint8Array(audio.bytes), track.content_type === "audio/wav" ? "wav" : "mp3");
    expect(probe.streams.some((stream) => stream.codec_type === "audio")).toBe(true);

    const events = await eventsOf(workspaceId, "music.");
    expect(events.map((event) => event.type)).toEqual(["music.completed"]);
    expect((events[0]!.data as Row).object).toMatchObject({ generation_id: id, status: "completed", tracks: [expect.objectContaining({ track_id: `${id}_0` })] });
    // One submission upstream, its request id kept on the operation.
    const operation = await prisma().operation.findFirstOrThrow({ where: { subject_id: id } });
    expect(operation).toMatchObject({ kind: "music", status: "completed", credits_spent: 10, checkpoint: { request_id: expect.any(String) } });
    expect(standIn().calls((call) => call.route === "fal.submit" && call.at >= 0).length).toBeGreaterThanOrEqual(1);
    expect(await balanceOf(service, workspaceId)).toBe(20);
  });

  it("a failed song emits music.failed with its credits refunded", async () => {
    const { client, workspaceId } = await funded(service, 30);
    standIn().failNext("fal.submit", { status: 500 });
    const created = ok(await client.post("/api/v1/actions/music.generate", { style: "lo-fi", instrumental: true }));
    const done = await waitFor("the song to fail", async () => {
      const task = ok(await client.get(`/api/v1/actions/music.get_task?generation_id=${created.generation_id}`));
      return task.status === "failed" ? task : undefined;
    }, 30_000, 100);
    expect(done).toMatchObject({ status: "failed", credits_consumed: 0, tracks: null });
    expect(done.error_message).toMatch(/^upstream_error: /);
    const events = await eventsOf(workspaceId, "music.");
    expect(events.map((event) => event.type)).toEqual(["music.failed"]);
    expect(events[0]!.data).toMatchObject({ refunded_credits: 10, error_code: "upstream_error" });
    expect(await balanceOf(service, workspaceId)).toBe(30);
  });

  it("another workspace's song is 403 on music.get_task", async () => {
    const owner = await funded(service, 30);
    const intruder = await funded(service, 0);
    const created = ok(await owner.client.post("/api/v1/actions/music.generate", { prompt: "A march" }));
    refused(await intruder.client.get(`/api/v1/actions/music.get_task?generation_id=${created.generation_id}`), 403, "workspace_mismatch");
  });
});

describe("an image generation retaken after its worker died", () => {
  it("resumes from its checkpoint: the image already paid for is not drawn again", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const agentId = await imageAgent(client);
    // Queue it while its queue cannot take the job, so nothing runs it yet.
    const jobs = service.service.jobs;
    await jobs.queue("operations.image").close();
    let created: Row;
    try {
      created = ok(await client.post("/api/v1/actions/images.generate", { agent_id: agentId, variables: { subject: "a kite" }, count: 3 }));
    } finally {
      await jobs.forget("operations.image");
    }
    // As a dead worker's first attempt left it: one image stored, paid and checkpointed.
    const first = { key: `generations/${workspaceId}/${created.generation_id}/0.png`, content_type: "image/png", size_bytes: png.length, width: 96, height: 64 };
    await putBytes(createStorage({ ...loadConfig({}), ...overrides }), first.key, png);
    await prisma().operation.updateMany({ where: { subject_id: created.generation_id }, data: { attempts: 1, credits_spent: 4, checkpoint: { prompt_used: "A watercolour of a kite", files: [first] } } });
    const before = standIn().calls("openai.images.generations").length;
    const operation = await prisma().operation.findFirstOrThrow({ where: { subject_id: created.generation_id } });
    await enqueueOperation((job, payload, options) => jobs.enqueue(job, payload, options), imageGenerationOperation, operation);

    const done = await finishedGeneration(created.generation_id);
    expect(done).toMatchObject({ status: "completed", credits_consumed: 12 });
    expect(done.output_urls).toHaveLength(3);
    expect(standIn().calls("openai.images.generations").length - before).toBe(2);
    expect(await balanceOf(service, workspaceId)).toBe(8);
  });
});
