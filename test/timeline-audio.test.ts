// timeline.generate_audio (docs/timeline.md) against real workers and the offline speech provider
// (espeak-ng): each block is voiced and stored, its duration is the audio's as ffprobe measures it,
// starts and groups follow, the credits held are settled to the blocks voiced, a video.updated
// event is recorded per block, unchanged blocks are not voiced (nor paid) twice, a retaken attempt
// keeps what its operation voiced, a test key
// simulates (no row, no credit, no provider call), and the voiced video renders to an MP4 as long
// as its voice-over.
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { probeMedia } from "../src/media/probe.js";
import type { Config } from "../src/config.js";
import type { OperationRunContext } from "../src/operations/kind.js";
import { timelineAudioOperation } from "../src/timeline/audio-operation.js";
import { isolatedEnvironment, useService, useStandIn, type Client } from "./support/service.js";
import { balanceOf, funded, ok, renderEnded } from "./support/action-calls.js";
import { waitForStatus } from "./support/wait.js";

const environment = isolatedEnvironment("timeline-audio", { runWorkers: true, outboundAllow: ["127.0.0.1"], renderPreset: "ultrafast", dispatchIntervalMs: 60_000 });
const overrides: Partial<Config> = environment.overrides;
const providers = useStandIn(overrides, { CUTROOM_SPEECH_MODEL: "local/espeak-ng" });
const service = useService(overrides);
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/${name}`, input);

function finished(operationId: string): Promise<Row> {
  const read = () => prisma().operation.findUniqueOrThrow({ where: { operation_id: operationId } });
  return waitForStatus(`operation ${operationId}`, read, (row) => row.status, ["completed", "failed", "canceled"], 60_000, 200);
}

async function probeUrl(url: string, name: string) {
  const file = path.join(os.tmpdir(), `${name}-${Date.now()}`);
  await writeFile(file, new Uint8Array(await (await fetch(url)).arrayBuffer()));
  return probeMedia(file);
}

const BLOCKS = [
  { block_id: "b1", group_id: "g1", text: "Would you rather fly?", pause_after: 0.5, editor_state: { open: true } },
  { block_id: "b2", group_id: "g1", text: "Or be invisible?" },
  { block_id: "b3", group_id: "g2", type: "title" },
];
const GROUPS = [{ group_id: "g1", name: "Question" }, { group_id: "g2", name: "End" }];

describe("timeline.generate_audio", () => {
  it("voices the blocks, sets their durations from ffprobe, settles the hold, and the video renders as long as the voice-over", async () => {
    const { client, workspaceId } = await funded(service, 100);
    const video = (await client.post("/api/v1/videos", { video_name: "Voiced", blocks: BLOCKS, groups: GROUPS })).body as Row;
    const balance = await balanceOf(service, workspaceId);
    const events = await prisma().outboxEvent.count({ where: { workspace_id: workspaceId, type: "video.updated" } });

    const task = ok(await call(client, "timeline.generate_audio", { video_id: video.video_id }));
    expect(task).toMatchObject({ object: "timeline_audio", status: "queued", block_ids: ["b1", "b2"], skipped: ["b3"], credits: { cost: 4, charged: 4, held: true } });
    const operation = await finished(task.task_id);
    expect(operation).toMatchObject({ kind: "timeline_audio", status: "completed", progress: 100, credits_held: 4, credits_spent: 4 });
    expect(await balanceOf(service, workspaceId)).toBe(balance - 4);
    expect(await prisma().outboxEvent.count({ where: { workspace_id: workspaceId, type: "video.updated" } })).toBe(events + 2);

    const stored = (await client.get(`/api/v1/videos/${video.video_id}`)).body as Row;
    const [b1, b2, b3] = stored.blocks as Row[];
    for (const block of [b1!, b2!]) {
      const probe = await probeUrl(block.audio_url, "block");
      expect(probe.streams.some((stream) => stream.codec_type === "audio")).toBe(true);
      expect(Math.abs(probe.duration! - block.duration)).toBeLessThanOrEqual(0.05);
      expect(block).toMatchObject({ audio_text: block.text, audio_duration: block.duration });
      expect(block.audio_key).toContain(task.task_id);
    }
    expect(b1).toMatchObject({ start: 0, editor_state: { open: true } });
    expect(b2!.start).toBeCloseTo(b1!.duration + 0.5, 3);
    expect(b3!.start).toBeCloseTo(b2!.start + b2!.duration, 3);
    expect(b3).not.toHaveProperty("audio_url");
    const total = b1!.duration + 0.5 + b2!.duration;
    expect(stored.groups[0]).toMatchObject({ group_id: "g1", start: 0 });
    expect(stored.groups[0].duration).toBeCloseTo(total, 3);
    expect(stored.composition.duration).toBeCloseTo(total, 3);
    expect((stored.composition.layers as Row[]).filter((layer) => layer.type === "audio").map((layer) => layer.src)).toEqual([b1!.audio_url, b2!.audio_url]);

    // A retaken attempt of the same operation keeps what it voiced: no provider call, the same files, the same spend.
    const retake = {
      prisma: prisma(),
      operation: await prisma().operation.findUniqueOrThrow({ where: { operation_id: task.task_id } }),
      providers: { get: () => { throw new Error("a retake must not voice again"); } },
      signal: new AbortController().signal,
      progress: () => undefined,
      spent: async () => undefined,
    } as unknown as OperationRunContext;
    const retaken = await timelineAudioOperation.run(retake, { block_ids: ["b1", "b2"], voice_settings_map: null, language: null, force: false });
    expect(retaken).toEqual({ result: { block_ids: ["b1", "b2"] }, creditsSpent: 4 });
    expect(((await client.get(`/api/v1/videos/${video.video_id}`)).body as Row).blocks[1].audio_url).toBe(b2!.audio_url);

    // Unchanged blocks are not voiced again (nor paid); a changed one is, and only it.
    const again = ok(await call(client, "timeline.generate_audio", { video_id: video.video_id }));
    expect(again).toMatchObject({ task_id: null, block_ids: [], skipped: ["b1", "b2", "b3"], credits: { cost: 0 } });
    const edited = (stored.blocks as Row[]).map((block) => (block.block_id === "b2" ? { ...block, text: "Or read minds?" } : block));
    const one = ok(await call(client, "timeline.generate_audio", { video_id: video.video_id, scope: "group", group_id: "g1", blocks: edited }));
    expect(one).toMatchObject({ block_ids: ["b2"], skipped: ["b1"], credits: { cost: 2 } });
    expect(await finished(one.task_id)).toMatchObject({ status: "completed", credits_spent: 2 });
    const after = (await client.get(`/api/v1/videos/${video.video_id}`)).body as Row;
    expect(after.blocks[0].audio_url).toBe(b1!.audio_url);
    expect(after.blocks[1]).toMatchObject({ audio_text: "Or read minds?" });
    const voiceLayers = (after.composition.layers as Row[]).filter((layer) => layer.type === "audio");
    expect(voiceLayers.map((layer) => layer.src)).toEqual([after.blocks[0].audio_url, after.blocks[1].audio_url]);
    expect(await balanceOf(service, workspaceId)).toBe(balance - 6);

    const render = ok(await call(client, "renders.create", { video_id: video.video_id }));
    const done = await renderEnded(client, video.video_id, render.render_id);
    expect(done.render_status, JSON.stringify(done)).toBe("completed");
    const mp4 = await probeUrl(done.output_url, "voiced.mp4");
    expect(mp4.streams.some((stream) => stream.codec_type === "audio")).toBe(true);
    const voiced = after.blocks[0].duration + 0.5 + after.blocks[1].duration;
    expect(Math.abs(mp4.duration! - voiced)).toBeLessThanOrEqual(0.2);
  });

  it("refuses a scope naming nothing before anything is held; a test key simulates: no row, no credit, no provider call", async () => {
    const fixture = await funded(service, 50);
    const video = (await fixture.client.post("/api/v1/videos", { video_name: "Quiet", blocks: BLOCKS, groups: GROUPS })).body as Row;
    const missing = await call(fixture.client, "timeline.generate_audio", { video_id: video.video_id, block_id: "nope" });
    expect(missing.status, missing.text).toBe(422);
    expect(missing.body.error.details.issues[0]).toMatchObject({ path: "block_id" });
    const badBlocks = await call(fixture.client, "timeline.generate_audio", { video_id: video.video_id, blocks: [{ block_id: "x", duration: -1 }] });
    expect(badBlocks.status, badBlocks.text).toBe(422);

    const test = await fixture.newKey({ mode: "test" });
    const balance = await balanceOf(service, fixture.workspaceId);
    const calls = providers.standIn.calls().length;
    const operations = await prisma().operation.count({ where: { workspace_id: fixture.workspaceId } });
    const simulated = ok(await call(test.client, "timeline.generate_audio", { video_id: video.video_id, block_id: "b1" }));
    expect(simulated).toMatchObject({ livemode: false, block_ids: ["b1"], credits: { cost: 2, charged: 0 } });
    expect(await prisma().operation.count({ where: { workspace_id: fixture.workspaceId } })).toBe(operations);
    expect(await balanceOf(service, fixture.workspaceId)).toBe(balance);
    expect(providers.standIn.calls().length).toBe(calls);
    const row = await prisma().video.findUniqueOrThrow({ where: { video_id: video.video_id } });
    expect((row.blocks as Row[])[0]).not.toHaveProperty("audio_url");
  });
});
