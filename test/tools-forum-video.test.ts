// tools.forum_post_to_video end to end (docs/generation.md, "Tools"): a forum thread's JSON listing
// served by the stand-in is read through the URL guard, voiced by local/espeak-ng (offline), and
// made into a video project that renders.create renders: the MP4 has the voice-over and lasts the
// composition's duration. Runs real workers (the render) in an environment of its own.
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { addCredits } from "../src/credits/ledger.js";
import { probeMedia } from "../src/media/probe.js";
import { siteUrls } from "./support/provider-standin/site-routes.js";
import { createFixture, isolatedEnvironment, useService, useStandIn, type Client } from "./support/service.js";
import { ok, renderEnded } from "./support/action-calls.js";

type Row = Record<string, any>;

const environment = isolatedEnvironment("tools-forum-video", { runWorkers: true, renderPreset: "ultrafast", dispatchIntervalMs: 60_000 });
const providers = useStandIn(environment.overrides, { CUTROOM_SPEECH_MODEL: "local/espeak-ng", CUTROOM_PROVIDER_MAX_RETRIES: "0" });
const service = useService(environment.overrides);
const prisma = () => service.service.database.prisma;

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/${name}`, input);

describe("tools.forum_post_to_video", () => {
  it("reads the thread, voices the post and its comments offline, makes a video renders.create renders with the voice-over", async () => {
    const { client, workspaceId } = await createFixture(service);
    await prisma().$transaction((tx) => addCredits(tx, { workspaceId, amount: 20, actionType: "grant" }));
    const urls = siteUrls(providers.standIn.url);

    // A short thread keeps the render quick; the long one's reading is proved in test/tools-sites.test.ts.
    const made = ok(await call(client, "tools.forum_post_to_video", { forum_url: urls.short_forum_url, comment_limit: 2 }));
    expect(made).toMatchObject({ object: "forum_video", format: "listing_json", model: "local/espeak-ng", comment_ids: ["sh1", "sh2"], comments_left_out: 0, credits: { cost: 3, charged: 3, balance_after: 17 } });
    expect(made.post).toMatchObject({ post_id: "2sh0rt", title: "Cats or dogs?", author: "pollster", comment_count: 2 });
    expect(made.scenes.map((scene: Row) => [scene.kind, scene.comment_id, scene.text])).toEqual([["post", null, "Cats or dogs?"], ["comment", "sh1", "Cats."], ["comment", "sh2", "Dogs!"]]);
    expect(providers.standIn.calls((entry) => entry.path === "/comments/2sh0rt.json")).toHaveLength(1);

    // The video project: text and voice-over layers in the renderer's format, one pair per scene.
    const video = ok(await client.get(`/api/v1/videos/${made.video_id}`));
    expect(video.video_format).toBe("portrait");
    const layers = video.composition.layers as Row[];
    expect(layers.filter((layer) => layer.type === "text")).toHaveLength(3);
    expect(layers.filter((layer) => layer.type === "audio").map((layer) => layer.src)).toEqual(made.scenes.map((scene: Row) => scene.audio_url));
    expect(video.composition.duration).toBe(made.duration_seconds);
    expect(made.scenes.at(-1).end).toBe(made.duration_seconds);

    // A billed generation: the row, its event, and the stored voice-over served by its signed link.
    const generation = await prisma().generation.findUniqueOrThrow({ where: { generation_id: made.generation_id } });
    expect(generation).toMatchObject({ workspace_id: workspaceId, status: "completed", credits_consumed: 3, agent_type: "video", agent_model: "local/espeak-ng", prompt: made.post.title });
    expect(generation.generation_metadata).toMatchObject({ action: "tools.forum_post_to_video", site_format: "listing_json", video_id: made.video_id });
    const events = await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type: { in: ["generation.completed", "video.created"] } } });
    expect(events.map((event) => event.type).sort()).toEqual(["generation.completed", "video.created"]);
    const voice = await fetch(made.scenes[0].audio_url);
    expect(voice.status).toBe(200);
    expect(voice.headers.get("content-type")).toMatch(/audio\/(wav|x-wav)/);

    // renders.create renders it; the MP4 has the voice-over and the composition's length.
    const render = ok(await call(client, "renders.create", { video_id: made.video_id }));
    const finished = await renderEnded(client, made.video_id, render.render_id);
    expect(finished.render_status, JSON.stringify(finished)).toBe("completed");
    const file = path.join(os.tmpdir(), `tools-forum-${render.render_id}.mp4`);
    await writeFile(file, new Uint8Array(await (await fetch(finished.output_url)).arrayBuffer()));
    const probe = await probeMedia(file);
    const picture = probe.streams.find((stream) => stream.codec_type === "video");
    expect(picture).toMatchObject({ width: 1080, height: 1920 });
    expect(probe.streams.some((stream) => stream.codec_type === "audio")).toBe(true);
    expect(Math.abs(probe.duration! - made.duration_seconds)).toBeLessThanOrEqual(0.2);
  }, 60_000);

  it("a test key gets a quote: nothing read, voiced, written or spent", async () => {
    const fixture = await createFixture(service);
    const test = await fixture.newKey({ mode: "test" });
    const before = providers.standIn.calls().length;
    const quote = ok(await call(test.client, "tools.forum_post_to_video", { forum_url: siteUrls(providers.standIn.url).forum_url }));
    expect(quote).toMatchObject({ object: "action_quote", livemode: false, credits: { cost: 3, charged: 0 }, capabilities: ["speech"] });
    expect(providers.standIn.calls().length).toBe(before);
    expect(await prisma().video.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
    expect(await prisma().generation.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
  });
});
