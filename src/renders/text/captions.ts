// A `subtitles` layer drawn: each caption (a group of words, from groups, words, srt or vtt) laid
// out in the band of the safe area by src/video-model/timeline/caption-fit.ts (wrapped, shrunk to its
// max_lines, never cut off), rasterised per state and streamed as the band's pictures
// (./states.ts). The preset decides the states: `plain` one picture per caption (emphasised words
// in emphasis_color); `karaoke` one per spoken word, that word in emphasis_color; `boxed_word` a
// box behind the spoken word; `word_pop` the words appearing as they are spoken, the spoken one
// larger and in emphasis_color. Between captions the band is transparent.
import { shape } from "../../media/fonts/layout.js";
import { captionBand, planCaption, type CaptionPlan } from "../../video-model/index.js";
import { captionGroups } from "../../video-model/index.js";
import { frameOfSize } from "../../video-model/index.js";
import type { SubtitleGroup } from "../../video-model/index.js";
import { catalogFont } from "../../video-model/index.js";
import type { LayerOf } from "../composition.js";
import type { LayerContext, VisualLayerDrawing } from "../graph/layer-drawing.js";
import { RenderFailure } from "../render-failure.js";
import { statesDrawing, type PictureState } from "./states.js";
import { blankPng, rasterise, type DrawnPiece, type Rect, type TextPicture } from "./svg.js";

type SubtitlesLayer = LayerOf<"subtitles">;
type Preset = NonNullable<SubtitlesLayer["style"]["preset"]>;

/** A caption shown from `from` to `to`, with its spoken word (none for plain). */
interface Shown {
  from: number;
  to: number;
  group: number;
  word: number | null;
}

function timeline(groups: SubtitleGroup[], preset: Preset, window: { start: number; end: number }): Shown[] {
  const shown: Shown[] = [];
  groups.forEach((group, groupIndex) => {
    if (preset === "plain") {
      shown.push({ from: group.start, to: group.end, group: groupIndex, word: null });
      return;
    }
    group.words.forEach((word, wordIndex) => {
      const from = wordIndex === 0 ? group.start : Math.max(group.start, word.start);
      const to = wordIndex === group.words.length - 1 ? group.end : Math.min(group.end, group.words[wordIndex + 1]!.start);
      if (to > from) shown.push({ from, to, group: groupIndex, word: wordIndex });
    });
  });
  return shown
    .map((item) => ({ ...item, from: Math.max(item.from, window.start), to: Math.min(item.to, window.end) }))
    .filter((item) => item.to > item.from)
    .sort((a, b) => a.from - b.from);
}

/** Index of the word each piece of a plan belongs to. */
function wordOfPieces(plan: CaptionPlan): number[][] {
  return plan.block.lines.map((line) => line.pieces.map((piece) => {
    let found = 0;
    plan.words.forEach((word, index) => {
      if (word.start <= piece.start) found = index;
    });
    return found;
  }));
}

export async function drawSubtitlesLayer(layer: SubtitlesLayer, context: LayerContext): Promise<VisualLayerDrawing> {
  const { style } = layer;
  const preset: Preset = style.preset ?? (style.highlight_current_word ? "karaoke" : "plain");
  const frame = frameOfSize(Math.round(context.size.width / context.scale), Math.round(context.size.height / context.scale));
  const font = catalogFont(style.font, style.font_weight);
  const groups = captionGroups(layer);
  const plans = groups.map((group) => planCaption(group, style, frame, font));
  const failed = plans.find((plan) => plan.overflow);
  if (failed) throw new RenderFailure("invalid_composition", `composition.layers.${context.index}: ${failed.overflow}`);

  const band = captionBand(frame);
  const margin = Math.ceil(style.outline_width + style.font_size * 0.25) + 4;
  const tops = plans.map((plan) => plan.top);
  const bottoms = plans.map((plan) => plan.top + plan.block.height);
  const top = plans.length > 0 ? Math.min(...tops) : frame.height / 2;
  const bottom = plans.length > 0 ? Math.max(...bottoms) : frame.height / 2 + 1;
  const box = {
    x: Math.floor((band.x - margin) * context.scale),
    y: Math.floor((top - margin) * context.scale),
    width: Math.ceil((band.width + 2 * margin) * context.scale),
    height: Math.ceil((bottom - top + 2 * margin) * context.scale),
  };
  const canvas = { x: box.x / context.scale, y: box.y / context.scale, width: box.width / context.scale, height: box.height / context.scale };

  const picture = (groupIndex: number, spoken: number | null): TextPicture => {
    const plan = plans[groupIndex]!;
    const group = groups[groupIndex]!;
    const owners = wordOfPieces(plan);
    const unit = plan.block.size / font.unitsPerEm;
    const pieces: DrawnPiece[] = [];
    const boxes: (Rect & { color: string; radius: number })[] = [];
    const pad = plan.block.size * 0.18;
    plan.block.lines.forEach((line, lineIndex) => line.pieces.forEach((piece, pieceIndex) => {
      const word = owners[lineIndex]![pieceIndex]!;
      if (preset === "word_pop" && spoken !== null && word > spoken) return;
      const isSpoken = word === spoken;
      const x = band.x + piece.x;
      const baseline = plan.top + line.baseline;
      const highlighted = preset === "plain" ? group.words[word]?.emphasis : isSpoken && preset !== "boxed_word";
      const drawn: DrawnPiece = { piece, x, baseline, color: highlighted ? style.emphasis_color : style.color };
      if (preset === "word_pop" && isSpoken) drawn.scale = { factor: 1.15, originX: x + piece.width / 2, originY: baseline - plan.block.size * 0.35 };
      if (preset === "boxed_word" && isSpoken) {
        const ascent = font.ascent * unit;
        // The word's own width: its trailing space (on its left in a right-to-left line) is not boxed.
        const rtl = piece.level % 2 === 1;
        const width = shape(font, piece.text.trimEnd(), rtl).advance * unit;
        const left = rtl ? x + piece.width - width : x;
        boxes.push({ x: left - pad, y: baseline - ascent - pad / 2, width: width + 2 * pad, height: ascent - font.descent * unit + pad, color: style.box_color ?? style.emphasis_color, radius: pad });
      }
      pieces.push(drawn);
    }));
    if (preset !== "boxed_word" && style.box_color) {
      const left = Math.min(...plan.block.lines.map((line) => line.x));
      const right = Math.max(...plan.block.lines.map((line) => line.x + line.width));
      boxes.unshift({ x: band.x + left - pad, y: plan.top - pad / 2, width: right - left + 2 * pad, height: plan.block.height + pad, color: style.box_color, radius: pad / 2 });
    }
    return { canvas, scale: context.scale, font, size: plan.block.size, pieces, boxes, ...(style.outline_width > 0 && { stroke: { color: style.outline_color, width: style.outline_width } }) };
  };

  const window = { start: layer.start, end: layer.end };
  const blank = await blankPng(box.width, box.height);
  const states: PictureState[] = [];
  let at = window.start;
  // Only the pictures the range shows are drawn: those before it are skipped (statesDrawing starts
  // at context.from), and the list ends with the one shown at the range's end.
  let cut = false;
  for (const item of timeline(groups, preset, window)) {
    const from = Math.max(item.from, at);
    if (item.to <= from) continue;
    if (from >= context.range.end) {
      cut = true;
      break;
    }
    if (from > at) states.push({ png: blank, seconds: from - at });
    states.push({ png: item.to <= (context.from ?? window.start) ? blank : await rasterise(picture(item.group, item.word)), seconds: item.to - from });
    at = item.to;
  }
  if (!cut && (window.end > at || states.length === 0)) states.push({ png: blank, seconds: Math.max(0.001, window.end - at) });
  return statesDrawing(context, `subtitles-${context.index}`, states, box, window);
}
