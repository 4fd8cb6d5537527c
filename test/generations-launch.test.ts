// generations.launch end to end: the playground pipeline through the real adapters against the
// stand-in, real workers. A prompt in; images (sharp) or videos (ffprobe) out, stored and served
// by signed links; one `generations` record billed 4 credits per output and one playground record
// per output, filled as its output lands; generation.failed with the credits already spent.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { probeBytes } from "./support/provider-standin/inspect.js";
import { download, ok, refused, useGenerationService, type Row } from "./support/generation-tests.js";

const t = useGenerationService("generations-launch");

const playgroundOf = (generationId: string) =>
  t.prisma().playgroundGeneration.findMany({ where: { result_data: { path: ["generation_id"], equals: generationId } }, orderBy: { playground_generation_id: "asc" } });

describe("generations.launch", () => {
  it("draws the images, bills 4 each, stores them, and fills one playground record per image", async () => {
    const { client, workspaceId } = await t.funded(20);
    const launched = ok(await client.post("/api/v1/actions/generations.launch", { text: "A paper boat on a rainy street", generation_number: 2, video_lang: "fr", hooks_number: 3 }));
    expect(launched).toMatchObject({
      object: "playground_launch",
      generation: { object: "generation", status: "pending", agent_type: "image", prompt: "A paper boat on a rainy street", credits_consumed: 8 },
      credits: { cost: 8, charged: 8, balance_after: 12, held: true },
    });
    expect(launched.playground_generations).toHaveLength(2);
    expect(launched.playground_generations[0]).toMatchObject({ object: "playground_generation", generation_type: "image", status: "pending", prompt: "A paper boat on a rainy street", media_url: null, credits_consumed: 4 });
    expect(launched.playground_generations[0].input_params).toMatchObject({ video_lang: "fr", hooks_number: 3 });
    const generationId = launched.generation.generation_id as string;

    const done = await t.finished(generationId);
    expect(done).toMatchObject({ status: "completed", credits_consumed: 8, error_message: null });
    expect(done.output_urls).toHaveLength(2);
    for (const [index, entry] of launched.playground_generations.entries()) {
      const record = ok(await client.get(`/api/v1/playground_generations/${entry._id}`));
      expect(record).toMatchObject({ status: "completed", credits_consumed: 4, media_url: expect.any(String), thumbnail_url: expect.any(String) });
      expect(record.result_data).toMatchObject({ generation_id: generationId, index, content_type: "image/png" });
      const file = await download(record.media_url);
      expect(file.type).toBe("image/png");
      expect(await sharp(file.bytes).metadata()).toMatchObject({ format: "png", width: 1024, height: 1024 });
    }
    const events = await t.eventsOf(workspaceId, "generation.");
    expect(events.map((event) => event.type)).toEqual(["generation.completed"]);
    expect(await t.balanceOf(workspaceId)).toBe(12);
  });

  it("a video launch asks the video model and stores an MP4 ffprobe reads", async () => {
    const { client, workspaceId } = await t.funded(20);
    const launched = ok(await client.post("/api/v1/actions/generations.launch", { generation_instructions: "Waves on black sand", generation_type: "video" }));
    expect(launched.generation).toMatchObject({ agent_type: "video", agent_model: "fal/fal-ai/kling-video/v2/master/text-to-video", credits_consumed: 4 });
    const done = await t.finished(launched.generation.generation_id);
    expect(done).toMatchObject({ status: "completed", credits_consumed: 4 });
    const [record] = await playgroundOf(done.generation_id);
    expect(record).toMatchObject({ generation_type: "video", status: "completed", media_url: done.output_urls[0], thumbnail_url: null });
    const file = await download(record!.media_url!);
    expect(file.type).toBe("video/mp4");
    const probe = await probeBytes(new Uint8Array(file.bytes), "mp4");
    expect(probe.streams.find((stream) => stream.codec_type === "video")).toMatchObject({ width: 320, height: 180 });
    expect(await t.balanceOf(workspaceId)).toBe(16);
  });

  it("a failure after the first image keeps it, fails the other playground record, and reports what was spent", async () => {
    const { client, workspaceId } = await t.funded(20);
    t.standIn().failNext("openai.images.generations", { status: 500, after: 1 });
    const launched = ok(await client.post("/api/v1/actions/generations.launch", { video_keyword: "lanterns", generation_number: 2 }));
    const done = await t.finished(launched.generation.generation_id);
    expect(done).toMatchObject({ status: "failed", credits_consumed: 4 });
    expect(done.output_urls).toHaveLength(1);
    const records = await playgroundOf(done.generation_id);
    const byId = new Map(records.map((record) => [record.playground_generation_id, record]));
    expect(byId.get(launched.playground_generations[0]._id)).toMatchObject({ status: "completed", credits_consumed: 4, media_url: done.output_urls[0] });
    expect(byId.get(launched.playground_generations[1]._id)).toMatchObject({ status: "failed", credits_consumed: 0, media_url: null });
    const events = await t.eventsOf(workspaceId, "generation.");
    expect(events.map((event) => event.type)).toEqual(["generation.failed"]);
    expect(events[0]!.data).toMatchObject({ credits_consumed: 4, credits_refunded: 4, error_code: "upstream_error" });
    expect(await t.balanceOf(workspaceId)).toBe(16);
  });

  it("is live on GraphQL with a typed result", async () => {
    const { client } = await t.funded(20);
    const answer = await client.graphql(
      `mutation ($input: GenerationsLaunchInput) { generations_launch(input: $input) { object generation { generation_id status credits_consumed } playground_generations { _id status generation_type } credits { cost charged } } }`,
      { input: { text: "A kite over dunes" } },
    );
    expect(answer.body.errors).toBeUndefined();
    const launched = answer.body.data.generations_launch as Row;
    expect(launched).toMatchObject({ object: "playground_launch", generation: { status: "pending", credits_consumed: 4 }, playground_generations: [{ status: "pending", generation_type: "image" }], credits: { cost: 4, charged: 4 } });
    expect(await t.finished(launched.generation.generation_id)).toMatchObject({ status: "completed" });
  });

  it("refuses a launch without a prompt, of an unknown type or model, before anything is held", async () => {
    const { client, workspaceId } = await t.funded(20);
    expect(refused(await client.post("/api/v1/actions/generations.launch", { generation_number: 1 }), 422, "validation_failed").param).toBe("text");
    expect(refused(await client.post("/api/v1/actions/generations.launch", { text: "x", generation_type: "audio" }), 422, "validation_failed").param).toBe("generation_type");
    expect(refused(await client.post("/api/v1/actions/generations.launch", { text: "x", ai_model_id: "openai/not-a-model" }), 422, "validation_failed").param).toBe("ai_model_id");
    refused(await client.post("/api/v1/actions/generations.launch", { text: "x", generation_number: 6 }), 402, "insufficient_credits");
    expect(await t.balanceOf(workspaceId)).toBe(20);
    expect(await t.prisma().playgroundGeneration.count({ where: { workspace_id: workspaceId } })).toBe(0);
    expect(await t.prisma().generation.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });
});
