// Slideshows (docs/faceless.md, "Slideshows") against the provider stand-in, with real workers:
// the done-when journey — a slideshow → slideshows.generate (every pending slide drawn by the image
// model, 4 credits each) → slideshows.export (the render pipeline) → an MP4 ffprobe accepts, as
// long as the slides' durations, with video and audio streams — plus the refusals and test keys.
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { probeMedia } from "../src/media/probe.js";
import { FFMPEG_PATH } from "../src/media/binaries.js";
import { addCredits } from "../src/credits/ledger.js";
import type { Config } from "../src/config.js";
import { createFixture, isolatedEnvironment, useService, useStandIn, type ApiResponse, type Client } from "./support/service.js";
import { balanceOf, ok, refused } from "./support/action-calls.js";
import { waitFor } from "./support/wait.js";

// A default configuration (no outbound allow-list): the export reads the slides from storage.
const environment = isolatedEnvironment("slideshows", { runWorkers: true, renderPreset: "ultrafast", dispatchIntervalMs: 60_000 });
const overrides: Partial<Config> = environment.overrides;
const providers = useStandIn(overrides);
const service = useService(overrides);
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;

function created(response: ApiResponse): Row {
  expect(response.status, response.text).toBe(201);
  return response.body as Row;
}

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/${name}`, input);

async function probeExport(url: string) {
  const file = path.join(os.tmpdir(), `slideshow-export-${Date.now()}.mp4`);
  await writeFile(file, new Uint8Array(await (await fetch(url)).arrayBuffer()));
  return { ...(await probeMedia(file)), file };
}

/** How much the grey pixels of a band of the frame at `seconds` vary (standard deviation, 0–255). */
async function bandSpread(file: string, seconds: number, crop: string): Promise<number> {
  const { stdout } = await promisify(execFile)(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-ss", seconds.toFixed(3), "-i", file, "-frames:v", "1", "-vf", `crop=${crop}`, "-f", "rawvideo", "-pix_fmt", "gray", "-"], { encoding: "buffer", maxBuffer: 8 << 20 });
  const pixels = [...(stdout as unknown as Buffer)];
  const mean = pixels.reduce((sum, value) => sum + value, 0) / pixels.length;
  return Math.sqrt(pixels.reduce((sum, value) => sum + (value - mean) ** 2, 0) / pixels.length);
}

async function settled(client: Client, slideshowId: string, from: string): Promise<Row> {
  return waitFor(
    `slideshow ${slideshowId} to leave ${from}`,
    async () => {
      const slideshow = ok(await client.get(`/api/v1/slideshows/${slideshowId}`));
      return slideshow.slideshow_status !== from ? slideshow : undefined;
    },
    90_000,
    250,
  );
}

describe("a slideshow, slides to MP4", () => {
  it("draws the pending slides, exports through the render pipeline, and the MP4 lasts the slides' durations", async () => {
    const { client, workspaceId } = await createFixture(service);
    await prisma().$transaction((tx) => addCredits(tx, { workspaceId, amount: 100, actionType: "grant" }));
    const slideshow = created(await client.post("/api/v1/slideshows", {
      slideshow_name: "Coast",
      slideshow_format: "square",
      slides: [{ text: "A lighthouse at dusk", duration: 2 }, { prompt: "Waves on black rocks", duration: 1.5, note: "kept" }, { text: "Gulls" }],
    }));
    const id = slideshow.slideshow_id as string;
    refused(await call(client, "slideshows.export", { slideshowId: id }), 400, "invalid_request");

    const images = providers.standIn.calls("openai.images.generations").length;
    const task = ok(await call(client, "slideshows.generate", { slideshowId: id }));
    expect(task).toMatchObject({ object: "slideshow_task", kind: "slideshow_visuals", credits: { cost: 12, charged: 12, held: true } });
    expect(task.slide_ids).toHaveLength(3);
    const drawn = await settled(client, id, "generating");
    expect(drawn.slideshow_status).toBe("ready");
    expect(drawn.slides.map((slide: Row) => [slide.slide_id, slide.status])).toEqual(task.slide_ids.map((slideId: string) => [slideId, "ready"]));
    expect(drawn.slides[1].note).toBe("kept");
    // Each slide drawn and the status that follows are changes of the slideshow: slideshow.updated,
    // the last one showing it ready.
    const updates = await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type: "slideshow.updated" }, orderBy: { seq: "asc" } });
    expect(updates.length).toBeGreaterThanOrEqual(4);
    expect((updates.at(-1)!.data as Row).object).toMatchObject({ slideshow_id: id, slideshow_status: "ready" });
    expect(providers.standIn.calls("openai.images.generations").length).toBe(images + 3);
    expect(providers.standIn.calls("openai.images.generations").at(-1)!.summary).toMatchObject({ size: "1024x1024" });
    refused(await call(client, "slideshows.generate", { slideshowId: id }), 400, "invalid_request");
    expect(await balanceOf(service, workspaceId)).toBe(88);

    refused(await call(client, "slideshows.export", { slideshowId: id, format: "gif" }), 422, "validation_failed");
    const exported = ok(await call(client, "slideshows.export", { slideshowId: id }));
    expect(exported).toMatchObject({ object: "slideshow_export", format: "mp4", duration_seconds: 7.5, render: { render_status: "queued" }, credits: { charged: 5, held: true } });
    const done = await settled(client, id, "exporting");
    expect(done.slideshow_status, JSON.stringify(done)).toBe("exported");
    // Built by the scene builder (src/scenes): each slide moving (Ken Burns) and dissolving into
    // the next (it runs into the next slide, which comes in over it), its text a caption for the
    // whole slide.
    const exportVideo = await prisma().video.findUniqueOrThrow({ where: { video_id: exported.video_id } });
    const layers = (exportVideo.composition as Row).layers as Row[];
    const pictures = layers.filter((layer) => layer.type === "image");
    expect(pictures.map((layer) => [layer.start, layer.end, layer.transition_in?.duration ?? 0, layer.transition_out?.duration ?? 0, layer.motion.type])).toEqual([
      [0, 2.6, 0, 0.6, "zoom_in"],
      [2, 4.1, 0.6, 0.6, "zoom_out"],
      [3.5, 7.5, 0.6, 0, "pan_right"],
    ]);
    const captions = layers.filter((layer) => layer.type === "subtitles");
    expect(captions).toHaveLength(1);
    expect(captions[0]!.groups.map((group: Row) => [group.start, group.end, group.words.map((word: Row) => word.word).join(" ")])).toEqual([[0, 2, "A lighthouse at dusk"], [3.5, 7.5, "Gulls"]]);
    const render = await prisma().render.findUniqueOrThrow({ where: { render_id: exported.render.render_id } });
    expect(render).toMatchObject({ render_status: "completed", video_id: exported.video_id, video_format: "square" });
    const probe = await probeExport(done.export_url);
    const video = probe.streams.find((stream) => stream.codec_type === "video")!;
    expect([video.width, video.height]).toEqual([1080, 1080]);
    expect(probe.streams.some((stream) => stream.codec_type === "audio")).toBe(true);
    expect(Math.abs(probe.duration! - 7.5)).toBeLessThanOrEqual(0.2);
    // The stand-in's pictures are flat colours: the caption of the first slide is what draws in the
    // bottom band; the second slide has no text, and its band stays flat.
    const bottom = "iw:ih/4:0:ih*3/4";
    expect(await bandSpread(probe.file, 1, bottom)).toBeGreaterThan(10);
    expect(await bandSpread(probe.file, 1, "iw:ih/4:0:0")).toBeLessThan(3);
    expect(await bandSpread(probe.file, 3, bottom)).toBeLessThan(3);
    expect(await balanceOf(service, workspaceId)).toBe(83);
  }, 90_000);

  it("with a test key simulates: no operation, no credit, no provider call", async () => {
    const fixture = await createFixture(service);
    await prisma().$transaction((tx) => addCredits(tx, { workspaceId: fixture.workspaceId, amount: 20, actionType: "grant" }));
    const slideshow = created(await fixture.client.post("/api/v1/slideshows", { slideshow_name: "Test", slides: [{ text: "One" }, { text: "Two" }] }));
    const test = await fixture.newKey({ mode: "test" });
    const calls = providers.standIn.calls().length;
    const simulated = ok(await call(test.client, "slideshows.generate", { slideshowId: slideshow.slideshow_id }));
    expect(simulated).toMatchObject({ livemode: false, credits: { cost: 8, charged: 0 } });
    expect(await prisma().operation.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
    expect((await prisma().slideshow.findUniqueOrThrow({ where: { slideshow_id: slideshow.slideshow_id } })).slideshow_status).toBe("draft");
    expect(await balanceOf(service, fixture.workspaceId)).toBe(20);
    expect(providers.standIn.calls().length).toBe(calls);
  });
});
