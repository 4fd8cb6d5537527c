// Text of a composition checked when a video is saved and when a render is queued, on REST and
// GraphQL: the font pre-flight (characters the font cannot draw, and a font that can), overflow
// (by how much), unknown fonts with did_you_mean, the font catalog in GET /api/v1, the workspace's
// own media references (another workspace's id refused like a missing one), and merge fields.
import { describe, expect, it } from "vitest";
import { balanceOf, funded } from "./support/action-calls.js";
import { createFixture, useService, type Client } from "./support/service.js";

const service = useService();
const prisma = () => service.service.database.prisma;
type Row = Record<string, any>;

const issuesOf = (response: { status: number; text: string; body: Row }) => {
  expect(response.status, response.text).toBe(422);
  return response.body.error.details.issues as Row[];
};
const video = (client: Client, composition: unknown, extra: Row = {}) => client.post("/api/v1/videos", { video_name: "Text", composition, ...extra });
const longText = "A caption that goes on and on, far longer than any frame can hold at this size. ".repeat(12).trim();

describe("text checked at save", () => {
  it("refuses characters the font cannot draw, naming them and a font that can (REST and GraphQL)", async () => {
    const { client } = await createFixture(service);
    const composition = { duration: 1, layers: [{ type: "text", text: "Hello こんにちは 日本語" }] };
    const [issue] = issuesOf(await video(client, composition));
    expect(issue).toMatchObject({ path: "composition.layers.0.font", type: "font.missing_glyphs", did_you_mean: "noto_sans_cjk_jp" });
    expect(issue!.message).toContain("'日' (U+65E5)");
    expect(issue!.message).not.toContain("'H'");

    const answer = await client.graphql("mutation($input: VideoCreateInput!) { create_video(input: $input) { video_id } }", { input: { video_name: "Text", composition } });
    const error = answer.body.errors[0].extensions;
    expect(error.code).toBe("validation_failed");
    expect(error.details.issues[0]).toMatchObject({ path: "composition.layers.0.font", did_you_mean: "noto_sans_cjk_jp" });

    const fixed = await video(client, { duration: 1, layers: [{ type: "text", text: "Hello こんにちは 日本語", font: "noto_sans_cjk_jp" }] });
    expect(fixed.status, fixed.text).toBe(201);
  });

  it("covers Latin, Cyrillic, Greek, CJK, Arabic, Hebrew and Devanagari with the shipped families, listed by GET /api/v1", async () => {
    const { client } = await createFixture(service);
    const discovery = await client.get("/api/v1");
    const fonts = (discovery.body.fonts as Row[]).map((font) => font.name);
    expect(fonts).toEqual(expect.arrayContaining(["sans", "serif", "mono", "display", "noto_sans_cjk_sc", "noto_sans_arabic", "noto_sans_hebrew", "noto_sans_devanagari"]));
    expect((discovery.body.fonts as Row[]).find((font) => font.name === "sans")).toMatchObject({ default: true, weights: expect.arrayContaining([400, 700]) });
    const samples: [string, string][] = [
      ["sans", "Ünïcödé Привет Γειά"], ["serif", "Serif Привет Γειά"], ["mono", "mono()"], ["display", "Display"],
      ["noto_sans_cjk_sc", "你好世界"], ["noto_sans_arabic", "مرحبا بالعالم"], ["noto_sans_hebrew", "שלום עולם"], ["noto_sans_devanagari", "नमस्ते दुनिया"],
    ];
    const layers = samples.map(([font, text], index) => ({ type: "text", text, font, y: 60 + index * 110, font_size: 48 }));
    const saved = await video(client, { duration: 1, layers });
    expect(saved.status, saved.text).toBe(201);
  });

  it("refuses an unknown font with did_you_mean and the allowed families", async () => {
    const { client } = await createFixture(service);
    const [issue] = issuesOf(await video(client, { duration: 1, layers: [{ type: "text", text: "Hi", font: "noto_sans_arabc" }] }));
    expect(issue).toMatchObject({ path: "composition.layers.0.font", did_you_mean: "noto_sans_arabic" });
    expect(issue!.allowed).toContain("sans");
  });

  it("refuses text that overflows its box, saying by how much, and saves it with auto_fit", async () => {
    const { client } = await createFixture(service);
    const [issue] = issuesOf(await video(client, { duration: 1, layers: [{ type: "text", text: longText, font_size: 96 }] }));
    expect(issue).toMatchObject({ path: "composition.layers.0.text", type: "text.overflow" });
    expect(issue!.message).toMatch(/\d+ px too tall/);
    const lines = issuesOf(await video(client, { duration: 1, layers: [{ type: "text", text: "One two three four five six seven eight", width: 300, max_lines: 2 }] }));
    expect(lines[0]!.message).toMatch(/max_lines is 2 \(\d+ too many\)/);
    const fitted = await video(client, { duration: 1, layers: [{ type: "text", text: longText, font_size: 96, auto_fit: true }] });
    expect(fitted.status, fitted.text).toBe(201);
    const tiny = issuesOf(await video(client, { duration: 1, layers: [{ type: "text", text: longText.repeat(2), font_size: 96, auto_fit: true, min_font_size: 60 }] }));
    expect(tiny[0]!.message).toMatch(/^The text does not fit: Even at auto_fit's smallest size: At 60 px/);
  });

  it("checks the text again when the format changes: what fits a landscape frame may not fit a portrait one", async () => {
    const { client } = await createFixture(service);
    const text = "Forty characters of text on one line!!!";
    const created = await video(client, { duration: 1, layers: [{ type: "text", text, font_size: 80, max_lines: 1 }] }, { video_format: "landscape" });
    expect(created.status, created.text).toBe(201);
    const [issue] = issuesOf(await client.patch(`/api/v1/videos/${created.body.video_id}`, { video_format: "portrait" }));
    expect(issue).toMatchObject({ path: "composition.layers.0.text", type: "text.overflow" });
  });

  it("refuses a caption font that cannot draw the words, and a caption too long even at its smallest size", async () => {
    const { client } = await createFixture(service);
    const [glyphs] = issuesOf(await video(client, { duration: 2, layers: [{ type: "subtitles", srt: "1\n00:00:00,000 --> 00:00:01,500\nनमस्ते दुनिया\n" }] }));
    expect(glyphs).toMatchObject({ path: "composition.layers.0.style.font", did_you_mean: "noto_sans_devanagari" });
    const words = Array.from({ length: 20 }, (_, index) => ({ word: "Supercalifragilistic", start: index * 0.05, end: index * 0.05 + 0.05 }));
    const [overflow] = issuesOf(await video(client, { duration: 2, layers: [{ type: "subtitles", words, words_per_group: 20, style: { font_size: 400 } }] }, { video_format: "square" }));
    expect(overflow).toMatchObject({ path: "composition.layers.0.words", type: "text.overflow" });
    const [both] = issuesOf(await video(client, { duration: 2, layers: [{ type: "subtitles", words: words.slice(0, 2), srt: "x" }] }));
    expect(both).toMatchObject({ path: "composition.layers.0.srt", type: "object.xor" });
  });
});

describe("the workspace's own media references", () => {
  it("saves an asset: of the workspace, refuses another workspace's like a missing one", async () => {
    const owner = await createFixture(service);
    const other = await createFixture(service);
    const asset = await owner.client.post("/api/v1/assets", { provider_file_name: "logo.png", provider_file_url: "https://cdn.example.com/logo.png" });
    expect(asset.status, asset.text).toBe(201);
    const id = asset.body._id as string;
    const image = (src: string) => ({ duration: 1, layers: [{ type: "image", src }] });

    expect((await video(owner.client, image(`asset:${id}`))).status).toBe(201);
    const [foreign] = issuesOf(await video(other.client, image(`asset:${id}`)));
    const [missing] = issuesOf(await video(other.client, image("asset:asset_doesnotexist")));
    expect(foreign).toMatchObject({ path: "composition.layers.0.src", message: `No asset '${id}' in this workspace.` });
    expect(missing!.message).toBe("No asset 'asset_doesnotexist' in this workspace.");

    const [typo] = issuesOf(await video(owner.client, image(`assets:${id}`)));
    expect(typo).toMatchObject({ path: "composition.layers.0.src", did_you_mean: `asset:${id}` });
    const [render] = issuesOf(await video(other.client, { duration: 1, layers: [{ type: "audio", src: "render:render_nothere" }] }));
    expect(render!.message).toBe("No render 'render_nothere' in this workspace.");
  });

  it("refuses at renders.create, before any credit is held, a composition written before the checks", async () => {
    const { client, workspaceId } = await funded(service, 50);
    const created = await video(client, { duration: 1, layers: [{ type: "text", text: "fits" }] });
    // As an older version of the service could have stored it: text far too large for the frame.
    await prisma().video.update({ where: { video_id: created.body.video_id }, data: { composition: { duration: 1, fps: 30, background_color: "#000000FF", layers: [{ type: "text", text: longText, font_size: 200, x: "center", y: "center", color: "#FFFFFFFF", box_padding: 16, start: 0 }] } } });
    const before = await balanceOf(service, workspaceId);
    const answer = await client.post("/api/v1/actions/renders.create", { video_id: created.body.video_id });
    const [issue] = issuesOf(answer);
    expect(issue).toMatchObject({ path: "composition.layers.0.text", type: "text.overflow" });
    expect(await balanceOf(service, workspaceId)).toBe(before);
  });
});

describe("merge fields at save", () => {
  it("saves placeholders in text, colours and src, and checks the rest of the layer", async () => {
    const { client } = await createFixture(service);
    const saved = await video(client, { duration: 1, layers: [{ type: "color", color: "{{brand}}" }, { type: "image", src: "{{logo}}" }, { type: "text", text: "Hi {{name}}", color: "{{brand}}" }] });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body.composition.layers[0].color).toBe("{{brand}}");
    const [issue] = issuesOf(await video(client, { duration: 1, layers: [{ type: "color", color: "brnad" }] }));
    expect(issue).toMatchObject({ path: "composition.layers.0.color", type: "string.color" });
  });
});
