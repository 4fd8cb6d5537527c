// A template rendered with merge values, end to end on REST and GraphQL: renders.create refuses
// each missing name before the hold, and with the values the worker draws the filled composition
// (the brand colour fills the frame). The workspace's own media is read from storage: a
// completed render used as `render:<id>` in another composition, with no outbound allow-list.
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { FFMPEG_PATH } from "../src/media/binaries.js";
import { balanceOf, funded, ok } from "./support/action-calls.js";
import { meanColour, near } from "./support/frames.js";
import { isolatedEnvironment, useService, type Client } from "./support/service.js";

const run = promisify(execFile);
const environment = isolatedEnvironment("merge-render", { runWorkers: true, renderPreset: "ultrafast", dispatchIntervalMs: 60_000 });
const service = useService(environment.overrides);
type Row = Record<string, any>;

async function finished(client: Client, renderId: string): Promise<Row> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const render = ok(await client.get(`/api/v1/renders/${renderId}`));
    if (render.render_status === "completed" || render.render_status === "failed") return render;
    if (Date.now() > deadline) throw new Error(`render still ${render.render_status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function download(url: string, name: string): Promise<string> {
  const file = path.join(os.tmpdir(), `merge-render-${name}-${Date.now()}.mp4`);
  await writeFile(file, new Uint8Array(await (await fetch(url)).arrayBuffer()));
  return file;
}

const template = {
  duration: 1,
  fps: 10,
  layers: [
    { type: "color", color: "{{brand}}" },
    { type: "text", text: "Hello {{name}}", font_size: 96, color: "{{ink}}" },
  ],
};

describe("merge fields in a render", () => {
  it("refuses missing names before the hold, and renders the filled template (REST and GraphQL)", async () => {
    const { client, workspaceId } = await funded(service, 100);
    const video = await client.post("/api/v1/videos", { video_name: "Template", video_format: "landscape", composition: template });
    expect(video.status, video.text).toBe(201);
    const videoId = video.body.video_id as string;

    const before = await balanceOf(service, workspaceId);
    const missing = await client.post("/api/v1/actions/renders.create", { video_id: videoId, merge: { name: "Ada" }, output: { resolution: "preview" } });
    expect(missing.status, missing.text).toBe(422);
    expect(missing.body.error.details.issues.map((issue: Row) => issue.path)).toEqual(["merge.brand", "merge.ink"]);
    expect(missing.body.error.details.issues[0].message).toContain("composition.layers.0.color");
    const graphqlMissing = await client.graphql("mutation($input: RendersCreateInput!) { renders_create(input: $input) { render_id } }", { input: { video_id: videoId, merge: { brand: "#00FF00" } } });
    expect(graphqlMissing.body.errors[0].extensions.details.issues.map((issue: Row) => issue.path)).toEqual(["merge.name", "merge.ink"]);
    expect(await balanceOf(service, workspaceId)).toBe(before);

    const queued = await client.graphql("mutation($input: RendersCreateInput!) { renders_create(input: $input) { render_id } }", { input: { video_id: videoId, merge: { brand: "#0000FF", name: "Ada", ink: "white" }, output: { resolution: "preview" } } });
    expect(queued.body.errors, queued.text).toBeUndefined();
    const render = await finished(client, queued.body.data.renders_create.render_id);
    expect(render.render_status, JSON.stringify(render)).toBe("completed");
    const file = await download(render.output_url, "template");
    expect(near(await meanColour(file, 0.5, "100:40:0:0"), [0, 0, 255])).toBe(true); // the brand colour, away from the text
    const [r, g, b] = await meanColour(file, 0.5, "200:60:220:150"); // the middle: white text over blue
    expect(r + g).toBeGreaterThan(20); // pure blue would be 0
    expect(b).toBeGreaterThan(150);
    // The stored composition keeps its placeholders: the video stays a template.
    expect(ok(await client.get(`/api/v1/videos/${videoId}`)).composition.layers[0].color).toBe("{{brand}}");
  });

  it("uses a completed render of the workspace as a video layer (render: reference), read from storage", async () => {
    const { client } = await funded(service, 100);
    const first = await client.post("/api/v1/videos", { video_name: "Green", composition: { duration: 1, fps: 10, layers: [{ type: "color", color: "#00FF00" }] } });
    const firstRender = await finished(client, ok(await client.post("/api/v1/actions/renders.create", { video_id: first.body.video_id, output: { resolution: "preview" } })).render_id);
    expect(firstRender.render_status).toBe("completed");
    const second = await client.post("/api/v1/videos", { video_name: "Reuse", composition: { duration: 1, fps: 10, background_color: "red", layers: [{ type: "video", src: `render:${firstRender.render_id}`, x: 0, y: 0, width: 960, height: 1080 }] } });
    expect(second.status, second.text).toBe(201);
    const render = await finished(client, ok(await client.post("/api/v1/actions/renders.create", { video_id: second.body.video_id, output: { resolution: "preview" } })).render_id);
    expect(render.render_status, JSON.stringify(render)).toBe("completed");
    const file = await download(render.output_url, "reuse");
    expect(near(await meanColour(file, 0.5, "300:360:0:0"), [0, 255, 0], 40)).toBe(true);
    expect(near(await meanColour(file, 0.5, "300:360:340:0"), [255, 0, 0], 40)).toBe(true);
    const { stderr } = await run(FFMPEG_PATH, ["-hide_banner", "-i", file, "-f", "null", "-"]).catch((error: { stderr: string }) => error);
    expect(stderr).not.toMatch(/error/i);
  });
});
