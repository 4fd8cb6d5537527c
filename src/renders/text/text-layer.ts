// A `text` layer drawn: laid out on the composition's frame exactly as the save-time check measured
// it (src/video-model/timeline/text-fit.ts), rasterised to RGBA pictures (./svg.ts) and handed to the
// builder as an overlay stream of its box (./states.ts), which the builder moves in and out with the
// layer's transitions. An animation is a picture per frame over its duration: fade and slide_up
// (rising while fading in) and pop (scaling up past its size and settling), typewriter (graphemes
// appearing in reading order) and word_by_word. A `font_url` font is read from the render's media,
// and its glyphs are checked before ffmpeg runs (font_missing_glyphs).
import { readFileSync } from "node:fs";
import { fontFromBytes, missingCharacters, type Font } from "../../media/fonts/coverage.js";
import { shape, type PlacedPiece } from "../../media/fonts/layout.js";
import { frameOfSize } from "../../video-model/index.js";
import { catalogFont, planText, type TextPlan } from "../../video-model/index.js";
import type { LayerOf } from "../composition.js";
import type { LayerContext, VisualLayerDrawing } from "../graph/layer-drawing.js";
import { RenderFailure } from "../render-failure.js";
import { animationSteps, statesDrawing, type PictureState } from "./states.js";
import { rasterise, type DrawnPiece, type Rect, type TextPicture } from "./svg.js";

type TextLayer = LayerOf<"text">;

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function layerFont(layer: TextLayer, context: LayerContext): Font {
  if (!layer.font_url) return catalogFont(layer.font, layer.font_weight);
  const where = `composition.layers.${context.index}.font_url`;
  let font: Font;
  try {
    font = fontFromBytes(readFileSync(context.media(layer.font_url)), layer.font_url);
  } catch {
    throw new RenderFailure("invalid_composition", `${where}: the file is not a TrueType, OpenType, WOFF or WOFF2 font.`);
  }
  const missing = missingCharacters(font, layer.text);
  if (missing.length > 0) {
    throw new RenderFailure("font_missing_glyphs", `${where}: the font has no glyph for ${missing.slice(0, 20).map((char) => `'${char}' (U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`).join(", ")}.`);
  }
  return font;
}

/** Pieces of the plan on the frame; with `visible`, only text before that character index (a prefix of a piece shaped anew). */
function framePieces(plan: TextPlan, font: Font, color: string, visible = Number.POSITIVE_INFINITY): DrawnPiece[] {
  return plan.block.lines.flatMap((line) => line.pieces.flatMap((piece: PlacedPiece): DrawnPiece[] => {
    const place = (shaped: PlacedPiece["shaped"], x: number) => [{ piece: { shaped }, x: plan.box.x + x, baseline: plan.top + line.baseline, color }];
    if (piece.start + piece.text.length <= visible) return place(piece.shaped, piece.x);
    if (piece.start >= visible) return [];
    const rtl = piece.level % 2 === 1;
    const shaped = shape(font, piece.text.slice(0, visible - piece.start), rtl);
    const width = shaped.advance * (plan.block.size / font.unitsPerEm);
    return place(shaped, rtl ? piece.x + piece.width - width : piece.x);
  }));
}

/** Where the text's ink is: the lines' extent on the frame. */
function inkRect(plan: TextPlan): Rect {
  const left = Math.min(...plan.block.lines.map((line) => line.x));
  const right = Math.max(...plan.block.lines.map((line) => line.x + line.width));
  return { x: plan.box.x + left, y: plan.top, width: Math.max(0, right - left), height: plan.block.height };
}

/** Character indices where each of `count` steps ends: graphemes (typewriter) or pieces (word_by_word). */
function revealPoints(plan: TextPlan, text: string, by: "grapheme" | "word"): number[] {
  if (by === "word") return plan.block.lines.flatMap((line) => line.pieces.map((piece) => piece.start + piece.text.length)).sort((a, b) => a - b);
  return [...graphemeSegmenter.segment(text)].map(({ index, segment }) => index + segment.length);
}

export async function drawTextLayer(layer: TextLayer, context: LayerContext): Promise<VisualLayerDrawing> {
  const frame = frameOfSize(Math.round(context.size.width / context.scale), Math.round(context.size.height / context.scale));
  const font = layerFont(layer, context);
  const plan = planText(layer, frame, font);
  if (plan.overflow) throw new RenderFailure("invalid_composition", `composition.layers.${context.index}.text: The text does not fit: ${plan.overflow}`);

  const ink = inkRect(plan);
  const padding = layer.box_color ? layer.box_padding : 0;
  const shadowReach = layer.shadow ? Math.max(Math.abs(layer.shadow.x), Math.abs(layer.shadow.y)) + 2 * layer.shadow.blur : 0;
  const animation = layer.animation;
  const slide = animation?.type === "slide_up" ? Math.round(plan.block.lineAdvance) : 0;
  const pop = animation?.type === "pop" ? Math.ceil(0.06 * Math.max(plan.box.width, plan.block.height)) : 0;
  const margin = Math.ceil(Math.max(layer.stroke_width, padding, shadowReach)) + 4 + pop;
  // The output box in whole output pixels; the canvas is the same rectangle in composition pixels.
  const box = {
    x: Math.floor((plan.box.x - margin) * context.scale),
    y: Math.floor((plan.top - margin) * context.scale),
    width: Math.ceil((plan.box.width + 2 * margin) * context.scale),
    height: Math.ceil((plan.block.height + 2 * margin + slide) * context.scale),
  };
  const canvas = { x: box.x / context.scale, y: box.y / context.scale, width: box.width / context.scale, height: box.height / context.scale };
  const base = {
    canvas,
    scale: context.scale,
    font,
    size: plan.block.size,
    ...(layer.box_color && { boxes: [{ x: ink.x - padding, y: ink.y - padding, width: ink.width + 2 * padding, height: ink.height + 2 * padding, color: layer.box_color, radius: 0 }] }),
    ...(layer.stroke_width > 0 && { stroke: { color: layer.stroke_color, width: layer.stroke_width } }),
    ...(layer.shadow && { shadow: layer.shadow }),
  };
  const full: TextPicture = { ...base, pieces: framePieces(plan, font, layer.color) };
  const length = layer.end - layer.start;
  const states: PictureState[] = [];
  if (animation && animation.duration > 0) {
    const seconds = Math.min(animation.duration, length);
    const steps = animationSteps(seconds, context.fps);
    const points = animation.type === "typewriter" || animation.type === "word_by_word" ? revealPoints(plan, layer.text, animation.type === "typewriter" ? "grapheme" : "word") : [];
    for (let step = 0; step < steps; step++) {
      const progress = step / steps;
      const eased = 1 - (1 - progress) ** 3;
      let picture: TextPicture;
      if (animation.type === "fade") picture = { ...full, opacity: progress };
      else if (animation.type === "slide_up") picture = { ...full, opacity: progress, transform: { dy: slide * (1 - eased), scale: 1, about: ink } };
      else if (animation.type === "pop") picture = { ...full, opacity: Math.min(1, progress * 2), transform: { dy: 0, scale: progress < 0.7 ? 0.6 + 0.5 * (progress / 0.7) : 1.1 - 0.1 * ((progress - 0.7) / 0.3), about: ink } };
      else {
        const shown = Math.round(points.length * progress);
        picture = { ...base, pieces: framePieces(plan, font, layer.color, shown === 0 ? 0 : points[shown - 1]) };
      }
      states.push({ png: await rasterise(picture), seconds: 1 / context.fps });
    }
    states.push({ png: await rasterise(full), seconds: Math.max(0.001, length - steps / context.fps) });
  } else {
    states.push({ png: await rasterise(full), seconds: length });
  }
  return statesDrawing(context, `text-${context.index}`, states, box, { start: layer.start, end: layer.end });
}
