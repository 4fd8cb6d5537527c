// Text as SVG, rasterised by sharp (librsvg) into an RGBA PNG: the glyph outlines of a laid-out
// block (src/media/fonts/layout.ts) drawn as paths, so the picture is exactly what was measured,
// complex scripts shaped and nothing left to a font lookup at draw time. Each glyph is defined once
// (in font units) and placed with <use>; a stroke is the outline drawn wider under the fill; a
// shadow is a blurred copy below; boxes are rounded rectangles behind. Coordinates are composition
// pixels of the frame; the picture covers `canvas` and is `scale` times its size.
import sharp from "sharp";
import type { Font } from "../../media/fonts/coverage.js";
import type { PlacedPiece } from "../../media/fonts/layout.js";

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A piece of a line to draw: where its baseline starts, in which colour, maybe scaled about a point. */
export interface DrawnPiece {
  piece: Pick<PlacedPiece, "shaped">;
  x: number;
  baseline: number;
  color: string;
  /** Scales the piece about (originX, originY). */
  scale?: { factor: number; originX: number; originY: number };
}

export interface TextPicture {
  canvas: Rect;
  /** Output pixels per composition pixel. */
  scale: number;
  font: Font;
  size: number;
  pieces: DrawnPiece[];
  boxes?: (Rect & { color: string; radius: number })[];
  stroke?: { color: string; width: number };
  shadow?: { color: string; x: number; y: number; blur: number };
  /** 0–1, applied to the whole picture. */
  opacity?: number;
  /** Moves (and scales about the centre of `about`) the whole picture. */
  transform?: { dy: number; scale: number; about: Rect };
}

const n = (value: number) => String(Math.round(value * 100) / 100);

/** `#RRGGBBAA` → SVG colour and opacity attributes. */
function paint(attribute: "fill" | "stroke", hex: string): string {
  const alpha = Number.parseInt(hex.slice(7, 9) || "FF", 16) / 255;
  return `${attribute}="${hex.slice(0, 7)}"${alpha < 1 ? ` ${attribute}-opacity="${n(alpha)}"` : ""}`;
}

function glyphDefs(picture: TextPicture): string {
  const seen = new Map<number, string>();
  for (const { piece } of picture.pieces) {
    for (const glyph of piece.shaped.glyphs) {
      if (!seen.has(glyph.id)) seen.set(glyph.id, `<path id="g${glyph.id}" d="${glyph.path.toSVG()}"/>`);
    }
  }
  return [...seen.values()].join("");
}

/** <use> of every glyph of a piece, in a group placing the piece on its baseline (font units inside). */
function pieceUses(drawn: DrawnPiece, unit: number, attributes: string): string {
  const { shaped } = drawn.piece;
  const uses = shaped.glyphs.map((glyph, index) => {
    const position = shaped.positions[index]!;
    return `<use href="#g${glyph.id}" x="${n(position.x + position.dx)}" y="${n(position.dy)}"/>`;
  });
  const place = `translate(${n(drawn.x)} ${n(drawn.baseline)}) scale(${unit} ${-unit})`;
  const around = drawn.scale ? `translate(${n(drawn.scale.originX)} ${n(drawn.scale.originY)}) scale(${n(drawn.scale.factor)}) translate(${n(-drawn.scale.originX)} ${n(-drawn.scale.originY)}) ` : "";
  return `<g transform="${around}${place}" ${attributes}>${uses.join("")}</g>`;
}

export function textSvg(picture: TextPicture): string {
  const { canvas, scale } = picture;
  const unit = picture.size / picture.font.unitsPerEm;
  const width = Math.max(1, Math.round(canvas.width * scale));
  const height = Math.max(1, Math.round(canvas.height * scale));
  const layers: string[] = [];
  for (const box of picture.boxes ?? []) {
    layers.push(`<rect x="${n(box.x)}" y="${n(box.y)}" width="${n(box.width)}" height="${n(box.height)}" rx="${n(box.radius)}" ${paint("fill", box.color)}/>`);
  }
  const strokeUnits = picture.stroke && picture.stroke.width > 0 ? (picture.stroke.width * 2) / unit : 0;
  const outline = (color: string) => (strokeUnits > 0 ? ` ${paint("stroke", color)} stroke-width="${n(strokeUnits)}" stroke-linejoin="round"` : "");
  if (picture.shadow) {
    const { shadow } = picture;
    const body = picture.pieces.map((drawn) => pieceUses(drawn, unit, `${paint("fill", shadow.color)}${outline(shadow.color)}`)).join("");
    layers.push(`<g transform="translate(${n(shadow.x)} ${n(shadow.y)})"${shadow.blur > 0 ? ' filter="url(#blur)"' : ""}>${body}</g>`);
  }
  if (strokeUnits > 0) layers.push(picture.pieces.map((drawn) => pieceUses(drawn, unit, `${paint("fill", picture.stroke!.color)}${outline(picture.stroke!.color)}`)).join(""));
  layers.push(picture.pieces.map((drawn) => pieceUses(drawn, unit, paint("fill", drawn.color))).join(""));

  const filter = picture.shadow && picture.shadow.blur > 0 ? `<filter id="blur" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${n(picture.shadow.blur / 2)}"/></filter>` : "";
  let content = layers.join("");
  if (picture.transform) {
    const { dy, scale: factor, about } = picture.transform;
    const cx = about.x + about.width / 2;
    const cy = about.y + about.height / 2;
    content = `<g transform="translate(0 ${n(dy)}) translate(${n(cx)} ${n(cy)}) scale(${n(factor)}) translate(${n(-cx)} ${n(-cy)})">${content}</g>`;
  }
  const opacity = picture.opacity !== undefined && picture.opacity < 1 ? ` opacity="${n(Math.max(0, picture.opacity))}"` : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs>${glyphDefs(picture)}${filter}</defs><g transform="scale(${scale}) translate(${n(-canvas.x)} ${n(-canvas.y)})"${opacity}>${content}</g></svg>`;
}

/** The picture as an RGBA PNG of canvas × scale pixels. */
export async function rasterise(picture: TextPicture): Promise<Buffer> {
  return sharp(Buffer.from(textSvg(picture))).ensureAlpha().png({ compressionLevel: 2 }).toBuffer();
}

/** A fully transparent PNG of a size (the gaps between captions). */
export async function blankPng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width: Math.max(1, width), height: Math.max(1, height), channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
}
