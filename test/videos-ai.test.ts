// videos_ai.generate and videos_ai.extend end to end: the real fal adapter against the stand-in's
// queue protocol, real workers. Clips are stored (ffprobe on the downloaded bytes), events and
// credits settle, the provider request id is checkpointed so a retaken attempt polls instead of
// paying twice, and an extended clip is the source and a new segment joined.
import { describe, expect, it } from "vitest";
import { enqueueOperation } from "../src/operations/worker.js";
import { videoMediaOperation } from "../src/generations/media-generation.js";
import { probeBytes } from "./support/provider-standin/inspect.js";
import { download, ok, refused, useGenerationService, type Row } from "./support/generation-tests.js";
import type { Client } from "./support/service.js";

const t = useGenerationService("videos-ai");

async function videoAgent(client: Client): Promise<string> {
  const created = await client.post("/api/v1/agents", { agent_name: "Director", agent_type: "video", agent_prompt_template: "A slow drone shot over {{place}}" });
  expect(created.status, created.text).toBe(201);
  return created.body.agent_id as string;
}

async function probedClip(url: string) {
  const file = await download(url);
  expect(file.status).toBe(200);
  expect(file.type).toBe("video/mp4");
  const probe = await probeBytes(new Uint8Array(file.bytes), "mp4");
  const video = probe.streams.find((stream) => stream.codec_type === "video")!;
  return { probe, video, bytes: file.bytes };
}

const falSubmits = () => t.standIn().calls("fal.submit");

describe("videos_ai.generate", () => {
  it("holds 5 credits per second of each clip, asks the video model per clip, and stores every clip probed by ffprobe", async () => {
    const { client, workspaceId } = await t.funded(50);
    const agentId = await videoAgent(client);
    const before = falSubmits().length;
    const created = ok(await client.post("/api/v1/actions/videos_ai.generate", { agent_id: agentId, variables: { place: "a fjord" }, count: 2, duration: 2, aspectRatio: "9:16", tier: "pro" }));
    expect(created).toMatchObject({ object: "generation", status: "pending", agent_type: "video", agent_model: "fal/fal-ai/kling-video/v2/master/text-to-video", prompt: "A slow drone shot over a fjord", credits_consumed: 20, credits: { cost: 20, charged: 20, balance_after: 30, held: true } });

    const done = await t.finished(created.generation_id);
    expect(done).toMatchObject({ status: "completed", credits_consumed: 20, error_message: null, thumbnail_url: null });
    expect(done.output_urls).toHaveLength(2);
    for (const url of done.output_urls) {
      const { video, probe } = await probedClip(url);
      expect([video.width, video.height]).toEqual([180, 320]);
      expect(probe.duration).toBeGreaterThan(1.5);
    }
    const files = (done.generation_metadata as Row).files;
    expect(files).toHaveLength(2);
    expect(files[0]).toMatchObject({ content_type: "video/mp4", width: 180, height: 320, duration_seconds: expect.any(Number) });
    expect((done.generation_metadata as Row).tier).toBe("pro");

    const submits = falSubmits().slice(before);
    expect(submits).toHaveLength(2);
    expect(submits[0]!.summary).toMatchObject({ prompt: "A slow drone shot over a fjord", duration: "2", aspect_ratio: "9:16" });
    const events = await t.eventsOf(workspaceId, "generation.");
    expect(events.map((event) => event.type)).toEqual(["generation.completed"]);
    expect((events[0]!.data as Row).object).toMatchObject({ generation_id: created.generation_id, status: "completed", output_urls: done.output_urls });
    expect(await t.balanceOf(workspaceId)).toBe(30);
    const operation = await t.prisma().operation.findFirstOrThrow({ where: { subject_id: created.generation_id } });
    expect(operation).toMatchObject({ kind: "video_media_generation", status: "completed", credits_spent: 20 });
  });

  it("is live on GraphQL with a typed result", async () => {
    const { client } = await t.funded(50);
    const agentId = await videoAgent(client);
    const answer = await client.graphql(
      `mutation ($input: VideosAiGenerateInput!) { videos_ai_generate(input: $input) { object generation_id status credits_consumed credits { cost charged held } } }`,
      { input: { agent_id: agentId, variables: { place: "a dune" }, duration: 1 } },
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.videos_ai_generate).toMatchObject({ object: "generation", status: "pending", credits_consumed: 5, credits: { cost: 5, charged: 5, held: true } });
    expect(await t.finished(answer.body.data.videos_ai_generate.generation_id)).toMatchObject({ status: "completed" });
  });

  it("a failure after the first clip keeps it, reports the credits already spent in generation.failed, and refunds the rest", async () => {
    const { client, workspaceId } = await t.funded(50);
    const agentId = await videoAgent(client);
    t.standIn().failNext("fal.submit", { status: 500, after: 1 });
    const created = ok(await client.post("/api/v1/actions/videos_ai.generate", { agent_id: agentId, variables: { place: "a glacier" }, count: 2, duration: 2 }));
    const done = await t.finished(created.generation_id);
    expect(done).toMatchObject({ status: "failed", credits_consumed: 10 });
    expect(done.output_urls).toHaveLength(1);
    expect(done.error_message).toMatch(/^upstream_error: /);
    await probedClip(done.output_urls[0]!);
    const events = await t.eventsOf(workspaceId, "generation.");
    expect(events.map((event) => event.type)).toEqual(["generation.failed"]);
    expect(events[0]!.data).toMatchObject({ object: { generation_id: created.generation_id, status: "failed" }, credits_consumed: 10, credits_refunded: 10, error_code: "upstream_error" });
    expect(await t.balanceOf(workspaceId)).toBe(40);
    expect((await t.ledger(workspaceId)).map((row) => [row.action_type, row.amount])).toEqual([["grant", 50], ["videos_ai.generate", -20], ["refund", 10]]);
  });

  it("a first frame is fetched through the URL guard and sent to the image-to-video endpoint; a URL that is no image fails refunded", async () => {
    const { client, workspaceId } = await t.funded(50);
    const agentId = await videoAgent(client);
    const before = falSubmits().length;
    const created = ok(await client.post("/api/v1/actions/videos_ai.generate", { agent_id: agentId, variables: { place: "a harbour" }, duration: 1, image_url: t.images.a, end_image_url: t.images.b }));
    expect(await t.finished(created.generation_id)).toMatchObject({ status: "completed", credits_consumed: 5 });
    const submit = falSubmits().slice(before)[0]!;
    expect(submit.model).toBe("fal-ai/kling-video/v2/master/image-to-video");
    expect(submit.summary.data_uris).toEqual(["image_url:image/png", "tail_image_url:image/png"]);

    const bad = ok(await client.post("/api/v1/actions/videos_ai.generate", { agent_id: agentId, variables: { place: "a harbour" }, duration: 1, image_url: t.images.text }));
    const failed = await t.finished(bad.generation_id);
    expect(failed).toMatchObject({ status: "failed", credits_consumed: 0, output_urls: [] });
    expect(failed.error_message).toMatch(/^reference_unreachable: image_url is not a PNG/);
    expect(await t.balanceOf(workspaceId)).toBe(45);
  });

  it("refuses what it cannot run before anything is held", async () => {
    const { client, workspaceId } = await t.funded(50);
    const image = await client.post("/api/v1/agents", { agent_name: "Painter", agent_type: "image" });
    expect(refused(await client.post("/api/v1/actions/videos_ai.generate", { agent_id: image.body.agent_id, custom_prompt: "x" }), 422, "validation_failed").param).toBe("agent_id");
    const agentId = await videoAgent(client);
    expect(refused(await client.post("/api/v1/actions/videos_ai.generate", { agent_id: agentId, variables: { place: "x" }, aspectRatio: "4:3" }), 422, "validation_failed").param).toBe("aspectRatio");
    expect(refused(await client.post("/api/v1/actions/videos_ai.generate", { agent_id: agentId, variables: { place: "x" }, end_image_url: t.images.a }), 422, "validation_failed").param).toBe("end_image_url");
    expect(refused(await client.post("/api/v1/actions/videos_ai.generate", { agent_id: agentId }), 422, "validation_failed").details.issues[0]).toMatchObject({ path: "variables.place" });
    refused(await client.post("/api/v1/actions/videos_ai.generate", { agent_id: agentId, variables: { place: "x" }, duration: 20, count: 1 }), 402, "insufficient_credits");
    expect(await t.balanceOf(workspaceId)).toBe(50);
    expect(await t.prisma().generation.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });

  it("a retaken attempt polls the request its dead worker submitted instead of paying for a second clip", async () => {
    const { client, workspaceId } = await t.funded(50);
    const agentId = await videoAgent(client);
    const jobs = t.service.service.jobs;
    await jobs.queue("operations.video").close();
    let created: Row;
    try {
      created = ok(await client.post("/api/v1/actions/videos_ai.generate", { agent_id: agentId, variables: { place: "a volcano" }, duration: 1 }));
    } finally {
      await jobs.forget("operations.video");
    }
    // As a dead worker's first attempt left it: the clip asked for, its request id saved.
    const submitted = await fetch(`${t.standIn().url}/fal/fal-ai/kling-video/v2/master/text-to-video`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ prompt: "A slow drone shot over a volcano", duration: "1" }) });
    const requestId = ((await submitted.json()) as Row).request_id as string;
    await t.prisma().operation.updateMany({ where: { subject_id: created.generation_id }, data: { attempts: 1, checkpoint: { prompts_used: ["A slow drone shot over a volcano"], files: [], request_id: requestId, request_index: 0 } } });
    const before = falSubmits().length;
    const operation = await t.prisma().operation.findFirstOrThrow({ where: { subject_id: created.generation_id } });
    await enqueueOperation((job, payload, options) => jobs.enqueue(job, payload, options), videoMediaOperation, operation);

    const done = await t.finished(created.generation_id);
    expect(done).toMatchObject({ status: "completed", credits_consumed: 5 });
    expect(falSubmits().length - before).toBe(0);
    expect(t.standIn().calls((call) => call.route === "fal.result" && call.summary.request_id === requestId).length).toBeGreaterThan(0);
    expect(await t.balanceOf(workspaceId)).toBe(45);
  });
});

describe("videos_ai.extend", () => {
  it("starts a 5-second segment from the clip's last frame and stores the two joined, for 25 credits", async () => {
    const { client, workspaceId } = await t.funded(60);
    const agentId = await videoAgent(client);
    const first = ok(await client.post("/api/v1/actions/videos_ai.generate", { agent_id: agentId, variables: { place: "a canyon" }, duration: 2 }));
    const source = await t.finished(first.generation_id);
    expect(source.status).toBe("completed");
    const before = falSubmits().length;
    const extended = ok(await client.post("/api/v1/actions/videos_ai.extend", { task_id: first.generation_id, prompt: "The camera rises above the canyon rim", agent_name: "Director" }));
    expect(extended).toMatchObject({ object: "generation", status: "pending", agent_type: "video", agent_id: agentId, prompt: "The camera rises above the canyon rim", credits_consumed: 25, credits: { cost: 25, charged: 25, held: true } });
    expect(extended.generation_id).not.toBe(first.generation_id);

    const done = await t.finished(extended.generation_id);
    expect(done).toMatchObject({ status: "completed", credits_consumed: 25 });
    expect(done.generation_metadata).toMatchObject({ action: "videos_ai.extend", source_generation_id: first.generation_id, segment_seconds: 5 });
    const submit = falSubmits().slice(before)[0]!;
    expect(submit.model).toBe("fal-ai/kling-video/v2/master/image-to-video");
    expect(submit.summary).toMatchObject({ duration: "5", aspect_ratio: "16:9", data_uris: ["image_url:image/png"] });
    const { probe, video } = await probedClip(done.output_urls[0]!);
    expect([video.width, video.height]).toEqual([320, 180]);
    // The source's 2 seconds and the new 5.
    expect(probe.duration).toBeGreaterThan(6.5);
    expect(probe.duration).toBeLessThan(7.5);
    expect(probe.streams.some((stream) => stream.codec_type === "audio")).toBe(true);
    expect((await t.eventsOf(workspaceId, "generation.")).map((event) => event.type)).toEqual(["generation.completed", "generation.completed"]);
    expect(await t.balanceOf(workspaceId)).toBe(25);
  });

  it("refuses a generation that is no video or failed, and another workspace's; a source still running when it runs fails refunded", async () => {
    const { client, workspaceId } = await t.funded(60);
    const intruder = await t.funded(60);
    const agentId = await videoAgent(client);
    const first = ok(await client.post("/api/v1/actions/videos_ai.generate", { agent_id: agentId, variables: { place: "a reef" }, duration: 1 }));
    refused(await intruder.client.post("/api/v1/actions/videos_ai.extend", { task_id: first.generation_id }), 403, "workspace_mismatch");
    refused(await client.post("/api/v1/actions/videos_ai.extend", { task_id: first.generation_id, model: "fal/not-a-model" }), 422, "validation_failed");

    // A source still running when the extension runs: nothing to join, so it fails refunded.
    const running = await t.prisma().generation.create({ data: { generation_id: `gen_run_${Date.now()}`, workspace_id: workspaceId, agent_type: "video", status: "running", prompt: "A reef" } });
    const early = ok(await client.post("/api/v1/actions/videos_ai.extend", { task_id: running.generation_id }));
    const outcome = await t.finished(early.generation_id);
    expect(outcome).toMatchObject({ status: "failed", credits_consumed: 0, prompt: "A reef" });
    expect(outcome.error_message).toMatch(/^source_unfinished: /);
    const failed = (await t.eventsOf(workspaceId, "generation.failed")).map((event) => event.data as Row);
    expect(failed).toContainEqual(expect.objectContaining({ credits_consumed: 0, credits_refunded: 25, error_code: "source_unfinished" }));

    await t.prisma().generation.update({ where: { generation_id: first.generation_id }, data: { status: "failed" } });
    expect(refused(await client.post("/api/v1/actions/videos_ai.extend", { task_id: first.generation_id }), 422, "validation_failed").param).toBe("task_id");
    const image = await t.prisma().generation.create({ data: { generation_id: `gen_img_${Date.now()}`, workspace_id: workspaceId, agent_type: "image", status: "completed" } });
    expect(refused(await client.post("/api/v1/actions/videos_ai.extend", { task_id: image.generation_id }), 422, "validation_failed").param).toBe("task_id");
  });
});
