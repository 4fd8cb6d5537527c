// videos.launch_flow and videos.generate_layer_audio (docs/faceless.md, "The videos.* pipeline")
// against the provider stand-in, with real workers: the pipeline writes the story, splits it,
// voices every scene (espeak-ng) and draws every scene (the image model) for the flat 25 credits,
// and the video renders to an MP4 as long as its voice-overs; a layer's audio re-times the scenes
// after it; refusals and test keys spend and call nothing.
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { probeMedia } from "../src/media/probe.js";
import type { Config } from "../src/config.js";
import { isolatedEnvironment, useService, useStandIn, type Client } from "./support/service.js";
import { balanceOf, funded, ok, refused } from "./support/action-calls.js";
import { waitFor } from "./support/wait.js";

const environment = isolatedEnvironment("videos-pipeline", { runWorkers: true, outboundAllow: ["127.0.0.1"], renderPreset: "ultrafast", dispatchIntervalMs: 60_000 });
const overrides: Partial<Config> = environment.overrides;
const providers = useStandIn(overrides, { CUTROOM_SPEECH_MODEL: "local/espeak-ng" });
const service = useService(overrides);
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/${name}`, input);

describe("videos.launch_flow", () => {
  it("runs script, voice and visuals for the flat price, and the video renders to an MP4 as long as its voice-overs", async () => {
    const { client, workspaceId } = await funded(service, 60);
    const created = await client.post("/api/v1/videos", { video_name: "Tides", video_format: "portrait", video_keyword: "why the sea has tides", faceless_target_duration: 10 });
    expect(created.status, created.text).toBe(201);
    const videoId = created.body.video_id as string;
    providers.standIn.answerNext("openai.chat", { title: "Tides", logline: "The moon and the sea.", paragraphs: ["The sea rises twice a day.", "The moon pulls it."] });
    const launched = ok(await call(client, "videos.launch_flow", { video_id: videoId, keywords_search: "moon, gravity", video_type_id: "vt_story" }));
    expect(launched).toMatchObject({ object: "faceless_task", kind: "faceless_pipeline", video_flow_type: "faceless", credits: { charged: 25, held: true } });
    refused(await call(client, "videos.launch_flow", { video_id: videoId }), 409, "conflict");
    let pipeline: Row | undefined;
    const status = await waitFor(
      () => `the pipeline to end: ${JSON.stringify(pipeline).slice(0, 300)}`,
      async () => {
        pipeline = ok(await call(client, "faceless.check_status", { task_id: launched.task_id }));
        return ["completed", "failed"].includes(pipeline.task.status) ? pipeline : undefined;
      },
      90_000,
      250,
    );
    expect(status.task, JSON.stringify(status.task)).toMatchObject({ status: "completed", credits_spent: 25 });
    expect(status).toMatchObject({ faceless_status: "ready" });
    expect(status.scenes.map((scene: Row) => scene.status)).toEqual(["ready", "ready"]);
    expect(providers.standIn.calls("openai.chat").at(-1)!.messages!.user).toContain("moon, gravity");
    expect(providers.standIn.calls("openai.images.generations").at(-1)!.summary).toMatchObject({ size: "1024x1536" });
    expect(await balanceOf(service, workspaceId)).toBe(35);
    const video = await prisma().video.findUniqueOrThrow({ where: { video_id: videoId } });
    expect(video.video_type_id).toBe("vt_story");
    const total = (video.faceless_scenes as Row[]).reduce((sum, scene) => sum + scene.audio.duration_ms, 0);
    expect(status.runtime_ms).toBe(total);

    const render = ok(await call(client, "renders.create", { video_id: videoId }));
    let last: Row | undefined;
    const done = await waitFor(
      () => `the render to end: ${JSON.stringify(last).slice(0, 300)}`,
      async () => {
        const row = await prisma().render.findUniqueOrThrow({ where: { render_id: render.render_id } });
        last = row;
        return ["completed", "failed"].includes(row.render_status) ? row : undefined;
      },
      90_000,
      250,
    );
    expect(done.render_status, done.error_message ?? "").toBe("completed");
    const file = path.join(os.tmpdir(), `videos-pipeline-${done.render_id}.mp4`);
    await writeFile(file, new Uint8Array(await (await fetch(done.output_url!)).arrayBuffer()));
    const probe = await probeMedia(file);
    const picture = probe.streams.find((stream) => stream.codec_type === "video")!;
    expect([picture.width, picture.height]).toEqual([1080, 1920]);
    expect(probe.streams.some((stream) => stream.codec_type === "audio")).toBe(true);
    expect(Math.abs(probe.duration! - total / 1000)).toBeLessThanOrEqual(0.2);
  }, 90_000);

  it("refuses an unknown flow type or section, and a test key queues nothing", async () => {
    const fixture = await funded(service, 30);
    const videoId = (await fixture.client.post("/api/v1/videos", { video_name: "Tides" })).body.video_id as string;
    refused(await call(fixture.client, "videos.launch_flow", { video_id: videoId, video_flow_type: "avatar" }), 422, "validation_failed");
    refused(await call(fixture.client, "videos.launch_flow", { video_id: videoId, section_id: "fsc_missing" }), 404, "not_found");
    const test = await fixture.newKey({ mode: "test" });
    expect(ok(await call(test.client, "videos.launch_flow", { video_id: videoId }))).toMatchObject({ livemode: false, credits: { cost: 25, charged: 0 } });
    expect(await prisma().operation.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
    expect(await balanceOf(service, fixture.workspaceId)).toBe(30);
  });
});

describe("videos.generate_layer_audio", () => {
  it("voices one layer with new words and moves every later scene to fit its measured length", async () => {
    const fixture = await funded(service, 10);
    const { client } = fixture;
    const parsed = ok(await call(client, "faceless.parse_script", { script: "First.\n\nSecond.\n\nThird." }));
    const voiced = ok(await call(client, "videos.generate_layer_audio", { videoId: parsed.video_id, layer_name: "scene 2", text: "The second scene, spoken at last." }));
    expect(voiced).toMatchObject({ object: "layer_audio", layer_name: "Scene 2", scene_id: parsed.scenes[1].scene_id, text: "The second scene, spoken at last.", start_ms: 3_000, credits: { charged: 2 } });
    expect(voiced.audio.model).toBe("local/espeak-ng");
    expect(voiced.end_ms - voiced.start_ms).toBe(voiced.audio.duration_ms);
    expect(voiced.runtime_ms).toBe(voiced.end_ms + 3_000);
    const video = await prisma().video.findUniqueOrThrow({ where: { video_id: parsed.video_id } });
    const layers = (video.composition as Row).layers as Row[];
    expect(layers.find((layer) => layer.type === "audio")).toMatchObject({ start: 3, end: voiced.end_ms / 1000 });
    expect((video.composition as Row).duration).toBe(voiced.runtime_ms / 1000);
    const missing = refused(await call(client, "videos.generate_layer_audio", { videoId: parsed.video_id, layer_name: "Scene 9" }), 404, "not_found");
    expect(missing.details.layers).toEqual(["Scene 1", "Scene 2", "Scene 3"]);
    const test = await fixture.newKey({ mode: "test" });
    expect(ok(await call(test.client, "videos.generate_layer_audio", { videoId: parsed.video_id, layer_name: "Scene 1" }))).toMatchObject({ object: "action_quote" });
    expect(await balanceOf(service, fixture.workspaceId)).toBe(7);
  });
});
