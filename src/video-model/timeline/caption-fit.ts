// Where captions go: each group's words wrapped in the band of the frame's safe area, at the
// style's size or smaller until the group fits in `max_lines` lines (or, for a long one, in more
// lines) and a third of the safe height, so no caption is cut off or runs out of the frame. Used by the save-time check
// (./text-checks.ts) and the caption drawing (src/renders/text/captions.ts).
import { layoutText, type TextBlock } from "../../media/fonts/layout.js";
import type { Font } from "../../media/fonts/coverage.js";
import type { Frame } from "./frame.js";
import type { SubtitleGroup, SubtitleStyle } from "./text-layers.js";

export interface CaptionBand {
  /** Left edge and width of the band (the safe width), composition pixels. */
  x: number;
  width: number;
  /** The tallest a caption may be. */
  maxHeight: number;
}

export interface CaptionPlan {
  block: TextBlock;
  /** The caption's text: its words joined by spaces (uppercased when the style says). */
  text: string;
  /** Character range of each word in `text`. */
  words: { start: number; end: number }[];
  /** Top of the caption on the frame. */
  top: number;
  /** Why the group does not fit even at the smallest size (absent when it fits). */
  overflow?: string;
}

export function captionBand(frame: Frame): CaptionBand {
  const width = frame.width - frame.safe.left - frame.safe.right;
  return { x: frame.safe.left, width, maxHeight: Math.round((frame.height - frame.safe.top - frame.safe.bottom) / 3) };
}

/** The smallest size a caption shrinks to. */
export function minCaptionSize(style: Pick<SubtitleStyle, "font_size">): number {
  return Math.max(8, Math.round(style.font_size / 3));
}

export function captionText(group: SubtitleGroup, style: Pick<SubtitleStyle, "uppercase">): { text: string; words: { start: number; end: number }[] } {
  let text = "";
  const words = group.words.map((word) => {
    const shown = (style.uppercase ? word.word.toUpperCase() : word.word).replace(/\s+/g, " ").trim() || " ";
    if (text) text += " ";
    const start = text.length;
    text += shown;
    return { start, end: text.length };
  });
  return { text, words };
}

/** Top of a caption of `height` pixels at the style's position, inside the safe area. */
export function captionTop(style: Pick<SubtitleStyle, "position" | "margin">, frame: Frame, height: number): number {
  if (style.position === "top") return Math.max(style.margin, frame.safe.top);
  if (style.position === "center") return Math.round((frame.height - height) / 2);
  return frame.height - Math.max(style.margin, frame.safe.bottom) - Math.ceil(height);
}

export function planCaption(group: SubtitleGroup, style: SubtitleStyle, frame: Frame, font: Font): CaptionPlan {
  const band = captionBand(frame);
  const { text, words } = captionText(group, style);
  const lay = (size: number) => layoutText({ text, font, size, width: band.width, align: "center", lineHeight: style.line_height, inkMargin: style.outline_width });
  const strict = (block: TextBlock) => block.lines.length <= style.max_lines && block.height <= band.maxHeight;
  const loose = (block: TextBlock) => block.height <= band.maxHeight && !block.brokeWord;
  /** The largest size in [low, high] whose block passes, or undefined. */
  const largest = (low: number, high: number, passes: (block: TextBlock) => boolean): TextBlock | undefined => {
    let best: TextBlock | undefined;
    while (low <= high) {
      const middle = Math.floor((low + high) / 2);
      const candidate = lay(middle);
      if (passes(candidate)) {
        best = candidate;
        low = middle + 1;
      } else high = middle - 1;
    }
    return best;
  };
  // At its size if it fits in max_lines; else shrunk, down to 60% of the size, to fit them; else
  // as large as fits the band's height in more lines; else, down to the smallest size, in any way.
  let block = lay(style.font_size);
  let overflow: string | undefined;
  if (!strict(block)) {
    const smallest = minCaptionSize(style);
    const best = largest(Math.max(smallest, Math.round(style.font_size * 0.6)), style.font_size - 1, strict)
      ?? largest(smallest, style.font_size - 1, loose)
      ?? largest(smallest, style.font_size - 1, (candidate) => candidate.height <= band.maxHeight);
    block = best ?? lay(smallest);
    if (!best) overflow = `The caption "${text.slice(0, 60)}${text.length > 60 ? "…" : ""}" needs ${block.lines.length} lines (${Math.ceil(block.height)} px) even at ${block.size} px; a caption may be ${band.maxHeight} px high. Give fewer words per group.`;
  }
  return { block, text, words, top: captionTop(style, frame, block.height), ...(overflow && { overflow }) };
}
