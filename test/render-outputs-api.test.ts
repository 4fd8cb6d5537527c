// renders.create's `output` and what a completed render carries, end to end on REST and GraphQL:
// the worker renders on real BullMQ, ffmpeg and PostgreSQL; `outputs` lists the main file, poster,
// thumbnail and contact sheet, each fetched through its signed URL; `quality` is on the record and
// in render.completed; a bad output is a 422 at its path; deleting the render removes every file.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { addCredits } from "../src/credits/ledger.js";
import { createFixture, isolatedEnvironment, useService, type ApiResponse, type Client } from "./support/service.js";

// Real renders: minutes, not seconds, on a machine busy with other suites.
vi.setConfig({ testTimeout: 180_000 });

const environment = isolatedEnvironment("render-outputs-api", { runWorkers: true, renderPreset: "ultrafast", dispatchIntervalMs: 60_000 });
const service = useService(environment.overrides);
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;

function expectOk(response: ApiResponse, status = 200): Row {
  expect(response.status, response.text).toBe(status);
  return response.body as Row;
}

let client: Client;
let workspaceId: string;
let videoId: string;

/** 2 s, version 2: a blue card wiping in over red, a tone; normalised to -14 LUFS. */
const COMPOSITION = {
  version: 2, duration: 2, fps: 10, background_color: "red",
  layers: [
    { type: "color", color: "blue", start: 0.5, transition_in: { type: "wipe_right", duration: 0.5 } },
    { type: "tone", frequency: 440, volume: 0.1, role: "music" },
  ],
};

beforeAll(async () => {
  const fixture = await createFixture(service);
  ({ client, workspaceId } = fixture);
  await prisma().$transaction((tx) => addCredits(tx, { workspaceId, amount: 100, actionType: "grant", description: "test grant" }));
  videoId = expectOk(await client.post("/api/v1/videos", { video_name: "outputs", video_format: "landscape", composition: COMPOSITION }), 201).video_id as string;
});

async function finished(renderId: string): Promise<Row> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const render = expectOk(await client.get(`/api/v1/renders/${renderId}`));
    if (render.render_status === "completed" || render.render_status === "failed") return render;
    if (Date.now() > deadline) throw new Error(`render ${renderId} still ${render.render_status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("renders.create output on REST", () => {
  it("renders a webm preview with a poster, thumbnail, contact sheet and quality report, all in render.completed", async () => {
    const created = expectOk(await client.post("/api/v1/actions/renders.create", { video_id: videoId, output: { format: "webm", resolution: "preview", quality: "draft" } }));
    expect(created).toMatchObject({ render_status: "queued", output_format: "webm", outputs: null, quality: null });
    const render = await finished(created.render_id as string);
    expect(render.error_message ?? null, render.error_message).toBeNull();
    expect(render.outputs.map((entry: Row) => entry.kind)).toEqual(["video", "poster", "thumbnail", "contact_sheet"]);
    expect(render.outputs[0]).toMatchObject({ content_type: "video/webm", width: 640, height: 360 });
    expect(render.output_url).toBe(render.outputs[0].url);
    expect(render.thumbnail_url).toBe(render.outputs[2].url);
    expect(render).not.toHaveProperty("output_keys");
    for (const entry of render.outputs as Row[]) {
      const response = await fetch(entry.url as string);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(entry.content_type);
      expect((await response.arrayBuffer()).byteLength).toBe(entry.bytes);
    }
    expect(render.quality).toMatchObject({ video_seconds: expect.closeTo(2, 0) as number, audio_seconds: expect.closeTo(2, 0) as number, black: [], silent: [] });
    expect(Math.abs((render.quality.loudness_lufs as number) - -14)).toBeLessThanOrEqual(1.5);

    const events = await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type: "render.completed" } });
    const completed = events.map((event) => (event.data as Row).object as Row).find((object) => object.render_id === render.render_id);
    expect(completed?.outputs.map((entry: Row) => entry.kind)).toEqual(["video", "poster", "thumbnail", "contact_sheet"]);
    expect(completed?.quality).toEqual(render.quality);

    // Deleting the render removes every file it stored.
    expectOk(await client.post("/api/v1/actions/renders.delete", { render_id: render.render_id }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const entry of render.outputs as Row[]) expect((await fetch(entry.url as string)).status).toBe(404);
  });

  it("refuses a bad output with 422 at its path, before a credit is spent", async () => {
    const before = (await prisma().workspace.findUniqueOrThrow({ where: { workspace_id: workspaceId } })).credit_balance;
    const format = await client.post("/api/v1/actions/renders.create", { video_id: videoId, output: { format: "avi" } });
    expect(format.status, format.text).toBe(422);
    expect(format.body.error.details.issues[0]).toMatchObject({ path: "output.format", message: expect.stringContaining("webm") as string });
    const range = await client.post("/api/v1/actions/renders.create", { video_id: videoId, output: { range: { start: 5, length: 1 } } });
    expect(range.status, range.text).toBe(422);
    expect(range.body.error.details.issues[0]).toMatchObject({ path: "output.range.start" });
    expect((await prisma().workspace.findUniqueOrThrow({ where: { workspace_id: workspaceId } })).credit_balance).toBe(before);
  });
});

describe("renders.create output on GraphQL", () => {
  it("renders a png still and reads outputs and quality back", async () => {
    const created = await client.graphql(`mutation($input: RendersCreateInput!) { renders_create(input: $input) { render_id render_status } }`, {
      input: { video_id: videoId, output: { format: "png", at: 1.5, width: 320 } },
    });
    expect(created.body.errors, created.text).toBeUndefined();
    const renderId = created.body.data.renders_create.render_id as string;
    await finished(renderId);
    const read = await client.graphql(`query($id: ID!) { render(render_id: $id) { render_status output_format outputs quality output_url } }`, { id: renderId });
    expect(read.body.errors, read.text).toBeUndefined();
    const render = read.body.data.render as Row;
    expect(render).toMatchObject({ render_status: "completed", output_format: "png", quality: null });
    expect(render.outputs).toEqual([expect.objectContaining({ kind: "still", content_type: "image/png", width: 320, height: 180 })]);
    const still = await fetch(render.output_url as string);
    expect(still.headers.get("content-type")).toBe("image/png");
  });
});
