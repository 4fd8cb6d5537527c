// Text and captions as they come out of ffmpeg: each layer drawn by its drawer
// (src/renders/text/drawers.ts) over a plain background at a small size, frames read back as
// pixels. Wrapped text stays inside its box, captions inside the safe area (a 200-character one
// too), the spoken word changes colour, CJK and Arabic come out in their fonts, animations
// reveal the text over time, and a font_url font without the glyphs fails before ffmpeg runs.
import os from "node:os";
import path from "node:path";
import { mkdtemp, rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFace } from "../src/media/fonts/coverage.js";
import { faceFor, fontCatalog } from "../src/media/fonts/catalog.js";
import { parseComposition, type LayerOf } from "../src/renders/composition.js";
import { renderOutput } from "../src/renders/output-spec.js";
import { produceRender } from "../src/renders/produce.js";
import { RenderFailure } from "../src/renders/render-failure.js";
import { TEXT_DRAWERS } from "../src/renders/text/drawers.js";
import { frameOf } from "../src/video-model/timeline/frame.js";
import { catalogFont, planText } from "../src/video-model/timeline/text-fit.js";
import { framePixels, layerHarness } from "./support/layer-harness.js";

const BACKGROUND = [32, 48, 64];
let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cutroom-text-drawing-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Size = { width: number; height: number };
const LANDSCAPE: Size = { width: 480, height: 270 };
const PORTRAIT: Size = { width: 270, height: 480 };

/** Draws a composition's layers at a quarter of the format's size; returns the MP4 and its size. */
async function draw(layers: unknown[], size: Size, options: { duration?: number; media?: Map<string, string> } = {}): Promise<string> {
  const composition = parseComposition({ duration: options.duration ?? 1, layers });
  const harness = await layerHarness(dir, size, 0.25, { media: options.media });
  const drawings = [];
  for (const [index, layer] of composition.layers.entries()) {
    harness.context.index = index;
    drawings.push(await (TEXT_DRAWERS[layer.type as keyof typeof TEXT_DRAWERS] as (layer: unknown, context: unknown) => unknown)(layer, harness.context));
  }
  return harness.render(drawings as never, options.duration ?? 1);
}

/** Pixels that are not the background (text, its outline or box). */
function ink(pixels: Buffer, size: Size): { x: number; y: number; rgb: [number, number, number] }[] {
  const found = [];
  for (let y = 0; y < size.height; y++) {
    for (let x = 0; x < size.width; x++) {
      const at = (y * size.width + x) * 3;
      const rgb: [number, number, number] = [pixels[at]!, pixels[at + 1]!, pixels[at + 2]!];
      if (Math.abs(rgb[0] - BACKGROUND[0]!) + Math.abs(rgb[1] - BACKGROUND[1]!) + Math.abs(rgb[2] - BACKGROUND[2]!) > 60) found.push({ x, y, rgb });
    }
  }
  return found;
}

const yellowish = ([r, g, b]: [number, number, number]) => r > 170 && g > 150 && b < 110;

describe("text drawn", () => {
  it("wraps a long line inside its box: no ink left or right of it, several lines of it", async () => {
    const text = "A ninety character caption at forty-eight pixels used to run off both edges of the frame!!";
    const file = await draw([{ type: "text", text, x: 400, width: 1000, font_size: 48, y: 300 }], LANDSCAPE);
    const found = ink(await framePixels(file, 0.5, LANDSCAPE), LANDSCAPE);
    expect(found.length).toBeGreaterThan(200);
    // The box is x 400..1400 in the 1920-wide frame: 100..350 at a quarter.
    expect(Math.min(...found.map((pixel) => pixel.x))).toBeGreaterThanOrEqual(99);
    expect(Math.max(...found.map((pixel) => pixel.x))).toBeLessThanOrEqual(351);
    const rows = found.map((pixel) => pixel.y);
    expect(Math.max(...rows) - Math.min(...rows)).toBeGreaterThan((48 * 1.5) / 4); // more than one line
  });

  it("keeps an old centred text layer centred and inside the frame's safe width", async () => {
    const text = "A long caption of ninety characters at forty-eight pixels on a landscape frame, wraps now.";
    const file = await draw([{ type: "text", text, font_size: 48, box_color: "#000000C0" }], LANDSCAPE);
    const found = ink(await framePixels(file, 0.5, LANDSCAPE), LANDSCAPE);
    const left = Math.min(...found.map((pixel) => pixel.x));
    const right = Math.max(...found.map((pixel) => pixel.x));
    expect(left).toBeGreaterThanOrEqual(Math.floor(96 / 4) - 5); // the box's padding may reach past the safe margin
    expect(right).toBeLessThanOrEqual(LANDSCAPE.width - Math.floor(96 / 4) + 5);
    expect(Math.abs(left + right - LANDSCAPE.width)).toBeLessThanOrEqual(4);
  });

  it("draws CJK and Arabic in their fonts: every glyph found in the font, ink on the frame", async () => {
    const frame = frameOf("landscape");
    for (const [font, text] of [["noto_sans_cjk_sc", "你好，世界"], ["noto_sans_arabic", "مرحبا بالعالم"]] as const) {
      const layer = parseComposition({ duration: 1, layers: [{ type: "text", text, font, font_size: 96 }] }).layers[0] as LayerOf<"text">;
      const plan = planText(layer, frame, catalogFont(font, 400));
      const glyphs = plan.block.lines.flatMap((line) => line.pieces.flatMap((piece) => piece.shaped.glyphs));
      expect(glyphs.length).toBeGreaterThan(0);
      expect(glyphs.every((glyph) => glyph.id !== 0)).toBe(true); // no .notdef box
      const file = await draw([layer], LANDSCAPE);
      expect(ink(await framePixels(file, 0.5, LANDSCAPE), LANDSCAPE).length).toBeGreaterThan(100);
    }
    // Arabic is joined: the shaped word uses contextual forms, fewer or other glyphs than its letters' isolated forms.
    const arabic = openFace(faceFor(fontCatalog().get("noto_sans_arabic")!, 400));
    const joined = arabic.layout("بالعالم").glyphs.map((glyph) => glyph.id);
    const isolated = [..."بالعالم"].map((char) => arabic.glyphForCodePoint(char.codePointAt(0)!).id);
    expect(joined).not.toEqual([...isolated].reverse());
  });

  it("reveals text over its animation: typewriter and word_by_word show less ink early, fade is dimmer", async () => {
    for (const type of ["typewriter", "word_by_word", "fade", "slide_up", "pop"]) {
      const file = await draw([{ type: "text", text: "Appearing text, one piece at a time", font_size: 80, animation: { type, duration: 0.8 } }], LANDSCAPE);
      const early = ink(await framePixels(file, 0.25, LANDSCAPE), LANDSCAPE);
      const late = ink(await framePixels(file, 0.9, LANDSCAPE), LANDSCAPE);
      const brightness = (pixels: typeof early) => pixels.reduce((sum, pixel) => sum + pixel.rgb[0] + pixel.rgb[1] + pixel.rgb[2], 0);
      expect(brightness(early), type).toBeLessThan(brightness(late) * 0.9);
    }
  });

  it("fails with font_missing_glyphs, before ffmpeg, when a font_url font cannot draw the text", async () => {
    const mono = faceFor(fontCatalog().get("mono")!, 400).file;
    const media = new Map([["https://fonts.example/mono.ttf", mono]]);
    const layer = { type: "text", text: "Hello", font_url: "https://fonts.example/mono.ttf" };
    expect(ink(await framePixels(await draw([layer], LANDSCAPE, { media }), 0.5, LANDSCAPE), LANDSCAPE).length).toBeGreaterThan(50);
    const failure = await draw([{ ...layer, text: "Hello 世界" }], LANDSCAPE, { media }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RenderFailure);
    expect(failure).toMatchObject({ code: "font_missing_glyphs" });
    expect((failure as Error).message).toMatch(/^composition\.layers\.0\.font_url: .*'世' \(U\+4E16\)/);
  });
});

describe("captions drawn", () => {
  const long = "This caption is two hundred characters long, and it has to wrap inside the safe area of a portrait video without being cut off by the frame's edges or hidden under the controls of the apps people watch it in.";

  it("keeps a 200-character caption inside the portrait safe area, every word shown", async () => {
    expect(long.length).toBeGreaterThanOrEqual(200);
    const srt = `1\n00:00:00,000 --> 00:00:02,000\n${long}\n`;
    const file = await draw([{ type: "subtitles", srt, style: { preset: "plain", font_size: 72 } }], PORTRAIT, { duration: 2 });
    const found = ink(await framePixels(file, 1, PORTRAIT), PORTRAIT);
    expect(found.length).toBeGreaterThan(500);
    // Safe area of portrait: 120 px left and right, 440 px at the bottom (a quarter: 30, 30, 110).
    expect(Math.min(...found.map((pixel) => pixel.x))).toBeGreaterThanOrEqual(29);
    expect(Math.max(...found.map((pixel) => pixel.x))).toBeLessThanOrEqual(PORTRAIT.width - 29);
    expect(Math.max(...found.map((pixel) => pixel.y))).toBeLessThanOrEqual(PORTRAIT.height - 109);
  });

  it("colours the spoken word (karaoke): the highlight moves from the first word to the second", async () => {
    const words = [{ word: "WWWW", start: 0, end: 0.5 }, { word: "WWWW", start: 0.5, end: 1 }];
    const file = await draw([{ type: "subtitles", words, style: { preset: "karaoke", font_size: 120, emphasis_color: "#FFD400" } }], LANDSCAPE);
    const halves = async (seconds: number) => {
      const found = ink(await framePixels(file, seconds, LANDSCAPE), LANDSCAPE).filter((pixel) => yellowish(pixel.rgb));
      return [found.filter((pixel) => pixel.x < LANDSCAPE.width / 2).length, found.filter((pixel) => pixel.x >= LANDSCAPE.width / 2).length] as const;
    };
    const [firstLeft, firstRight] = await halves(0.25);
    const [secondLeft, secondRight] = await halves(0.75);
    expect(firstLeft).toBeGreaterThan(50);
    expect(firstRight).toBeLessThan(firstLeft / 5);
    expect(secondRight).toBeGreaterThan(50);
    expect(secondLeft).toBeLessThan(secondRight / 5);
  });

  it("boxes the spoken word, and shows nothing between captions", async () => {
    const vtt = "WEBVTT\n\n00:00.000 --> 00:00.400\nfirst words\n\n00:00.700 --> 00:01.000\nlater ones\n";
    const file = await draw([{ type: "subtitles", vtt, style: { preset: "boxed_word", position: "top", box_color: "#FFD400" } }], LANDSCAPE);
    expect(ink(await framePixels(file, 0.2, LANDSCAPE), LANDSCAPE).filter((pixel) => yellowish(pixel.rgb)).length).toBeGreaterThan(100);
    expect(ink(await framePixels(file, 0.55, LANDSCAPE), LANDSCAPE)).toHaveLength(0);
  });
});

describe("text through the render graph", () => {
  it("renders a text layer with an animation and a wipe transition, scaled to a preview render", async () => {
    const workDir = await mkdtemp(path.join(dir, "graph-"));
    const composition = parseComposition({
      duration: 1.5,
      fps: 10,
      background_color: "#203040",
      layers: [{ type: "text", text: "Wiped in, then typed", font_size: 120, start: 0.2, animation: { type: "word_by_word", duration: 0.4 }, transition_in: { type: "wipe_right", duration: 0.6 } }],
    });
    const produced = await produceRender({ composition, formatSize: { width: 1920, height: 1080 }, output: renderOutput.parse({ resolution: "preview" }), media: new Map(), workDir, preset: "ultrafast", timeoutMs: 120_000, progress: () => undefined });
    const file = produced.files[0]!.path;
    const size = { width: 640, height: 360 };
    const count = async (seconds: number) => ink(await framePixels(file, seconds, size), size);
    expect(await count(0.1)).toHaveLength(0);
    const half = await count(0.5);
    const whole = await count(1.2);
    expect(whole.length).toBeGreaterThan(300);
    expect(half.length).toBeGreaterThan(0);
    expect(half.length).toBeLessThan(whole.length * 0.8);
    // The text is centred on the preview frame: its ink straddles the middle.
    const xs = whole.map((pixel) => pixel.x);
    expect(Math.abs(Math.min(...xs) + Math.max(...xs) - size.width)).toBeLessThanOrEqual(6);
  });
});
