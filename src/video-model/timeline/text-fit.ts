// Where a text layer goes and at what size, measured with its font's real metrics
// (src/media/fonts/): its box on the frame, its lines wrapped in the box, and auto_fit's size. The
// same plan serves the check when a video is saved or a render queued (./text-checks.ts) and the
// drawing (src/renders/text/), so a text that passed the check is drawn as it was measured.
import { DEFAULT_FONT, faceFor, fontCatalog } from "../../media/fonts/catalog.js";
import { openFace, type Font } from "../../media/fonts/coverage.js";
import { layoutText, type TextAlign, type TextBlock } from "../../media/fonts/layout.js";
import type { Frame } from "./frame.js";
import type { TextLayerShape } from "./text-layers.js";

/** The fields of a text layer the plan reads. */
export type TextLayout = Pick<TextLayerShape, "text" | "x" | "y" | "width" | "height" | "align" | "line_height" | "max_lines" | "auto_fit" | "min_font_size" | "font_size" | "stroke_width">;

export interface TextBox {
  /** Left edge and width of the box the lines wrap in, composition pixels. */
  x: number;
  width: number;
  /** Room below the text's top: the box's height. */
  height: number;
  align: TextAlign;
}

export interface TextPlan {
  box: TextBox;
  block: TextBlock;
  /** Top of the text on the frame. */
  top: number;
  /** Why it does not fit (absent when it does), in words that say by how much. */
  overflow?: string;
}

/** The catalog font of a family and weight (the default family when the name is unknown). */
export function catalogFont(family: string | undefined, weight: number): Font {
  const catalog = fontCatalog();
  const found = catalog.get(family ?? DEFAULT_FONT) ?? catalog.get(DEFAULT_FONT);
  if (!found) throw new Error("No font of the catalog is installed (fonts-dejavu-core).");
  return openFace(faceFor(found, weight));
}

/** The box of a text layer on a frame: the safe width (or from x to the safe right edge), the room below its top. */
export function textBox(layer: TextLayout, frame: Frame): TextBox {
  const safeWidth = frame.width - frame.safe.left - frame.safe.right;
  const width = layer.width ?? (layer.x === "center" ? safeWidth : frame.width - frame.safe.right - layer.x);
  const x = layer.x === "center" ? Math.round((frame.width - width) / 2) : layer.x;
  const height = layer.height ?? (layer.y === "center" ? frame.height - frame.safe.top - frame.safe.bottom : frame.height - layer.y);
  return { x, width, height, align: layer.align ?? (layer.x === "center" ? "center" : "left") };
}

const px = (value: number) => Math.ceil(value);

function lay(layer: TextLayout, font: Font, box: TextBox, size: number): TextBlock {
  return layoutText({ text: layer.text, font, size, width: Math.max(1, box.width), align: box.align, lineHeight: layer.line_height, inkMargin: layer.stroke_width });
}

/** What is wrong with a block in a box, or undefined when it fits. */
function overflowOf(layer: TextLayout, block: TextBlock, box: TextBox, frame: Frame): string | undefined {
  if (box.width < 1) return `Its box starts at x ${box.x}, past the safe area's right edge (${frame.width - frame.safe.right} px): give a smaller x or a width.`;
  if (box.x < 0 || box.x + box.width > frame.width) {
    const past = box.x < 0 ? -box.x : box.x + box.width - frame.width;
    return `Its box (x ${box.x}, width ${box.width}) runs ${past} px past the frame's ${box.x < 0 ? "left" : "right"} edge (${frame.width} px wide).`;
  }
  if (layer.max_lines !== undefined && block.lines.length > layer.max_lines) {
    return `At ${block.size} px it needs ${block.lines.length} lines in a ${box.width} px wide box; max_lines is ${layer.max_lines} (${block.lines.length - layer.max_lines} too many).`;
  }
  if (block.height > box.height + 0.5) {
    return `At ${block.size} px it needs ${block.lines.length} line${block.lines.length === 1 ? "" : "s"}, ${px(block.height)} px high, in a box ${box.width} × ${box.height} px: ${px(block.height - box.height)} px too tall.`;
  }
  if (block.width > box.width + 0.5) return `At ${block.size} px one character is ${px(block.width - box.width)} px wider than its ${box.width} px box.`;
  return undefined;
}

/** The smallest size auto_fit goes down to. */
export function minFontSize(layer: Pick<TextLayout, "min_font_size" | "font_size">): number {
  return Math.min(layer.font_size, layer.min_font_size ?? Math.max(8, Math.round(layer.font_size / 4)));
}

/** Lays a text layer out on a frame in a font: at its size, or with auto_fit the largest size that fits. */
export function planText(layer: TextLayout, frame: Frame, font: Font): TextPlan {
  const box = textBox(layer, frame);
  let block = lay(layer, font, box, layer.font_size);
  let overflow = overflowOf(layer, block, box, frame);
  if (overflow && layer.auto_fit && box.width >= 1) {
    // The largest whole size in [min, font_size) that fits: fewer lines and less height as the size drops.
    let low = minFontSize(layer);
    let high = layer.font_size - 1;
    let best: TextBlock | undefined;
    while (low <= high) {
      const middle = Math.floor((low + high) / 2);
      const candidate = lay(layer, font, box, middle);
      if (overflowOf(layer, candidate, box, frame)) high = middle - 1;
      else {
        best = candidate;
        low = middle + 1;
      }
    }
    if (best) {
      block = best;
      overflow = undefined;
    } else {
      block = lay(layer, font, box, minFontSize(layer));
      overflow = `Even at auto_fit's smallest size: ${overflowOf(layer, block, box, frame) ?? "it does not fit"}`;
    }
  }
  const top = layer.y === "center" ? Math.round((frame.height - block.height) / 2) : layer.y;
  return { box, block, top, ...(overflow && { overflow }) };
}
