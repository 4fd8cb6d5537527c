// The timeline model (src/video-model/timeline/, docs/timeline.md): the heavy fields of a video are
// checked when the video is written — create, update and bulk alike — with the path of each issue
// and a did-you-mean, instead of failing later at render time. Unknown keys of the open shapes
// (blocks, groups) are kept; the composition is strict and stored as it is read (defaults filled).
import { describe, expect, it } from "vitest";
import { createFixture, useService, type ApiResponse } from "./support/service.js";

const service = useService({});

type Row = Record<string, any>;

function issuesOf(response: ApiResponse): Row[] {
  expect(response.status, response.text).toBe(422);
  expect(response.body.error.code).toBe("validation_failed");
  return response.body.error.details.issues as Row[];
}

const composition = (layer: Row) => ({ duration: 2, layers: [layer] });

describe("the timeline model at save", () => {
  it("refuses a layer type the renderer cannot draw on create, with did-you-mean and the types there are", async () => {
    const { client } = await createFixture(service);
    const [issue] = issuesOf(await client.post("/api/v1/videos", { video_name: "Bad", composition: composition({ type: "txt", text: "Hi" }) }));
    expect(issue).toMatchObject({ path: "composition.layers.0.type", type: "any.only", did_you_mean: "text" });
    expect(issue!.allowed).toEqual(["color", "image", "video", "text", "audio", "tone", "subtitles", "question", "shape"]);
    expect(await service.service.database.prisma.video.count({ where: { video_name: "Bad" } })).toBe(0);
  });

  it("names an unknown field of a layer with the fields of that layer's type", async () => {
    const { client } = await createFixture(service);
    const [issue] = issuesOf(await client.post("/api/v1/videos", { composition: composition({ type: "text", text: "Hi", font_sise: 40 }) }));
    expect(issue).toMatchObject({ path: "composition.layers.0.font_sise", type: "object.unknown", did_you_mean: "font_size" });
    expect(issue!.allowed).toContain("box_color");
  });

  it("refuses the same on update (PATCH and videos.update) and in bulk", async () => {
    const { client } = await createFixture(service);
    const video = (await client.post("/api/v1/videos", { video_name: "Good", composition: composition({ type: "text", text: "Hi" }) })).body as Row;
    const patched = issuesOf(await client.patch(`/api/v1/videos/${video.video_id}`, { composition: composition({ type: "image", src: "ftp://x/y.png" }) }));
    expect(patched[0]).toMatchObject({ path: "composition.layers.0.src" });
    const updated = issuesOf(await client.post("/api/v1/actions/videos.update", { video_id: video.video_id, composition: { duration: 2, layers: [{ type: "text", text: "Hi", start: 3 }] } }));
    expect(updated[0]).toMatchObject({ path: "composition.layers.0.start", type: "number.max" });
    const stored = (await client.get(`/api/v1/videos/${video.video_id}`)).body as Row;
    expect(stored.composition.layers[0]).toMatchObject({ type: "text", text: "Hi" });

    const bulk = await client.post("/api/v1/videos/bulk", { create: [{ video_name: "ok" }, { video_name: "bad", composition: composition({ type: "subtitle", groups: [] }) }] });
    expect(bulk.status, bulk.text).toBe(207);
    const failed = (bulk.body.data as Row[]).find((item) => item.status === 422)!;
    expect(failed.error.details.issues[0]).toMatchObject({ path: "composition.layers.0.type", did_you_mean: "subtitles" });
  });

  it("checks the other heavy fields: blocks, groups, voice_settings_map, video_captions; keeps unknown keys of open shapes", async () => {
    const { client } = await createFixture(service);
    const blocks = issuesOf(await client.post("/api/v1/videos", { blocks: [{ block_id: "b1", duration: -1 }] }));
    expect(blocks[0]).toMatchObject({ path: "blocks.0.duration", type: "number.min" });
    const voices = issuesOf(await client.post("/api/v1/videos", { voice_settings_map: { narrator: { speed: 9 } } }));
    expect(voices[0]).toMatchObject({ path: "voice_settings_map.narrator.speed" });
    const captions = issuesOf(await client.post("/api/v1/videos", { video_captions: { groups: [{ start: 0, end: 1, words: [{ word: "hi", start: 0, end: 1, emphasys: true }] }] } }));
    expect(captions[0]).toMatchObject({ path: "video_captions.groups.0.words.0.emphasys", did_you_mean: "emphasis" });

    const created = await client.post("/api/v1/videos", {
      blocks: [{ block_id: "b1", text: "Hello", editor_state: { collapsed: true } }],
      groups: [{ group_id: "g1", block_ids: ["b1"], colour: "red" }],
      composition: { duration: 1, layers: [{ type: "text", text: "Hi", color: "white" }] },
    });
    expect(created.status, created.text).toBe(201);
    const video = (await client.get(`/api/v1/videos/${created.body.video_id}`)).body as Row;
    expect(video.blocks).toEqual([{ block_id: "b1", text: "Hello", editor_state: { collapsed: true } }]);
    expect(video.groups).toEqual([{ group_id: "g1", block_ids: ["b1"], colour: "red" }]);
    // Stored as read: defaults filled in, colours as #RRGGBBAA.
    expect(video.composition).toEqual({ duration: 1, fps: 30, background_color: "#000000FF", layers: [{
      type: "text", text: "Hi", start: 0, x: "center", y: "center", font_size: 64, color: "#FFFFFFFF", box_padding: 16,
      font: "sans", font_weight: 400, line_height: 1.2, auto_fit: false, stroke_color: "#000000FF", stroke_width: 0,
    }] });
  });

  it("checks faceless_scenes and smart_groups with the shapes faceless.* and smart_groups.* read", async () => {
    const { client } = await createFixture(service);
    const scene = { scene_id: "s1", index: 0, name: "Scene 1", text: "The tide.", visual_prompt: "", status: "pending", audio: null, visual: null };
    const faceless = issuesOf(await client.post("/api/v1/videos", { faceless_scenes: [{ ...scene, status: "done" }] }));
    expect(faceless[0]).toMatchObject({ path: "faceless_scenes.0.status" });
    const twice = issuesOf(await client.post("/api/v1/videos", { faceless_scenes: [scene, { ...scene, index: 1 }] }));
    expect(twice[0]).toMatchObject({ path: "faceless_scenes.1.scene_id" });
    const now = new Date().toISOString();
    const group = { type: "quiz", group_id: "q1", title: "Quiz", topic: null, actions: ["shuffle"], created_at: now, updated_at: now, items: [{ question: "2+2?", choices: ["3", "4"], correct_index: 1, explanation: null }] };
    const smart = issuesOf(await client.post("/api/v1/videos", { smart_groups: [{ ...group, items: [{ ...group.items[0], correct_index: 5 }] }] }));
    expect(smart[0]).toMatchObject({ path: "smart_groups.0.items.0.correct_index" });

    const created = await client.post("/api/v1/videos", { faceless_scenes: [scene], smart_groups: [group] });
    expect(created.status, created.text).toBe(201);
    const video = (await client.get(`/api/v1/videos/${created.body.video_id}`)).body as Row;
    expect(video.faceless_scenes).toEqual([scene]);
    expect(video.smart_groups).toEqual([group]);
  });

  it("publishes the shapes in OpenAPI (the videos create and update bodies)", async () => {
    const { client } = await createFixture(service);
    const openapi = (await client.get("/api/v1/openapi.json")).body as Row;
    const text = JSON.stringify(openapi);
    expect(text).toContain("subtitles");
    expect(text).toContain("highlight_current_word");
    expect(text).toContain("fade_in");
  });
});
