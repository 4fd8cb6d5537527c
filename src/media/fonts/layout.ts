// Text laid out with a font's real metrics: shaped by fontkit (ligatures, kerning, Arabic joining,
// Devanagari conjuncts), broken into lines at the Unicode line-break opportunities (UAX #14: between
// words, between CJK ideographs), a word wider than the box broken between graphemes, each line's
// pieces put in visual order by their bidirectional level (UAX #9), and aligned in its box. The
// same layout measures text when a composition is saved (overflow, auto_fit) and places every
// glyph when it is drawn, so what is checked is what is drawn.
//
// Pieces are shaped one by one (a piece is a word with its trailing space, or an ideograph), in
// font units, once per font; a size only scales them, so auto_fit's search re-breaks lines without
// shaping again.
import bidiFactory from "bidi-js";
import LineBreaker from "linebreak";
import type { Glyph } from "fontkit";
import type { Font } from "./coverage.js";

export type TextAlign = "left" | "center" | "right";

/** A shaped piece of text, in font units. */
export interface Shaped {
  glyphs: Glyph[];
  /** Pen position of each glyph and its offsets (x, y), in font units. */
  positions: { x: number; dx: number; dy: number }[];
  advance: number;
}

/** A piece placed on a line: pixels from the block's left edge and the line's baseline. */
export interface PlacedPiece {
  text: string;
  /** Index of the piece's first character in the laid-out text. */
  start: number;
  /** Left edge and width of the piece (trailing spaces not counted at a line's end). */
  x: number;
  width: number;
  /** Odd for right-to-left. */
  level: number;
  shaped: Shaped;
}

export interface LaidLine {
  pieces: PlacedPiece[];
  /** Width of the line's ink advance, pixels. */
  width: number;
  /** Left edge of the line in the block, after alignment. */
  x: number;
  /** Baseline, pixels from the block's top. */
  baseline: number;
}

export interface TextBlock {
  font: Font;
  size: number;
  lines: LaidLine[];
  /** The box width the lines were broken for. */
  boxWidth: number;
  /** Widest line, pixels. */
  width: number;
  /** From the first line's ascent to the last line's descent, pixels. */
  height: number;
  /** Pixels from one baseline to the next. */
  lineAdvance: number;
  /** Whether a word had to be broken inside (it was wider than the box). */
  brokeWord: boolean;
}

export interface LayoutOptions {
  text: string;
  font: Font;
  /** Pixels per em. */
  size: number;
  /** The box the lines wrap in, pixels. */
  width: number;
  align: TextAlign;
  /** Baseline-to-baseline distance as a multiple of the size. */
  lineHeight: number;
  /** Extra pixels each glyph's ink reaches beyond its advance on each side (a stroke). */
  inkMargin?: number;
}

const bidi = bidiFactory();
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const shapedCache = new WeakMap<Font, Map<string, Shaped>>();

/** A piece of text shaped in a font, in font units (cached per font). */
export function shape(font: Font, text: string, rtl: boolean): Shaped {
  let cache = shapedCache.get(font);
  if (!cache) shapedCache.set(font, (cache = new Map<string, Shaped>()));
  const key = `${rtl ? "r" : "l"}${text}`;
  let shaped = cache.get(key);
  if (!shaped) {
    const run = font.layout(text, undefined, undefined, undefined, rtl ? "rtl" : "ltr");
    let pen = 0;
    const positions = run.positions.map((position) => {
      const placed = { x: pen, dx: position.xOffset, dy: position.yOffset };
      pen += position.xAdvance;
      return placed;
    });
    shaped = { glyphs: run.glyphs, positions, advance: pen };
    if (cache.size > 20_000) cache.clear();
    cache.set(key, shaped);
  }
  return shaped;
}

/** Break opportunities: pieces of a paragraph (no newline inside), each a word with its trailing spaces. */
function pieces(paragraph: string): { text: string; start: number }[] {
  const breaker = new LineBreaker(paragraph);
  const result: { text: string; start: number }[] = [];
  let last = 0;
  for (let next = breaker.nextBreak(); next; next = breaker.nextBreak()) {
    if (next.position > last) result.push({ text: paragraph.slice(last, next.position), start: last });
    last = next.position;
  }
  return result;
}

interface Piece {
  text: string;
  start: number;
  level: number;
  /** Trailing whitespace, which does not count at the end of a line. */
  trailing: string;
}

/** A piece split between its graphemes into parts no wider than `width` (at least one grapheme each). */
function splitWide(piece: Piece, measure: (text: string, rtl: boolean) => number, width: number): Piece[] {
  const parts: Piece[] = [];
  let current = "";
  let currentStart = piece.start;
  const body = piece.text.slice(0, piece.text.length - piece.trailing.length);
  for (const { segment, index } of graphemes.segment(body)) {
    if (current && measure(current + segment, piece.level % 2 === 1) > width) {
      parts.push({ text: current, start: currentStart, level: piece.level, trailing: "" });
      current = "";
      currentStart = piece.start + index;
    }
    current += segment;
  }
  parts.push({ text: current + piece.trailing, start: currentStart, level: piece.level, trailing: piece.trailing });
  return parts;
}

/** Visual order of a line's pieces from their levels (UAX #9 rule L2, at the piece level). */
function visualOrder<T extends { level: number }>(items: T[]): T[] {
  const ordered = [...items];
  const highest = Math.max(0, ...ordered.map((item) => item.level));
  const lowestOdd = Math.min(...ordered.map((item) => item.level).filter((level) => level % 2 === 1), highest + 1);
  for (let level = highest; level >= lowestOdd && level > 0; level--) {
    for (let index = 0; index < ordered.length; ) {
      if (ordered[index]!.level < level) {
        index++;
        continue;
      }
      let end = index;
      while (end < ordered.length && ordered[end]!.level >= level) end++;
      ordered.splice(index, end - index, ...ordered.slice(index, end).reverse());
      index = end;
    }
  }
  return ordered;
}

/** Lays out text in a box `width` pixels wide. Lines never exceed the box unless a single grapheme does. */
export function layoutText(options: LayoutOptions): TextBlock {
  const { font, size, width, align, lineHeight } = options;
  const text = options.text.replace(/\r\n?/g, "\n").replace(/\t/g, " ");
  const scale = size / font.unitsPerEm;
  const ink = options.inkMargin ?? 0;
  const room = Math.max(1, width - 2 * ink);
  const measure = (piece: string, rtl: boolean) => shape(font, piece, rtl).advance * scale;
  const levels = bidi.getEmbeddingLevels(text, "auto").levels;
  const lines: Piece[][] = [];
  let brokeWord = false;

  let offset = 0;
  for (const paragraph of text.split("\n")) {
    let line: Piece[] = [];
    let lineWidth = 0;
    for (const found of pieces(paragraph)) {
      const start = offset + found.start;
      const trailing = /\s*$/u.exec(found.text)![0];
      // A piece's level is that of its first character that is not a space.
      const firstInk = found.text.search(/\S/u);
      const piece: Piece = { text: found.text, start, level: levels[start + Math.max(0, firstInk)] ?? 0, trailing };
      const rtl = piece.level % 2 === 1;
      const full = measure(piece.text, rtl);
      const bare = trailing ? measure(piece.text.slice(0, piece.text.length - trailing.length), rtl) : full;
      if (line.length > 0 && lineWidth + bare > room) {
        lines.push(line);
        line = [];
        lineWidth = 0;
      }
      if (bare > room) {
        brokeWord = true;
        const parts = splitWide(piece, measure, room);
        for (const part of parts.slice(0, -1)) lines.push([part]);
        const tail = parts.at(-1)!;
        line = [tail];
        lineWidth = measure(tail.text, rtl);
        continue;
      }
      line.push(piece);
      lineWidth += full;
    }
    lines.push(line);
    offset += paragraph.length + 1;
  }

  const ascent = font.ascent * scale;
  const descent = -font.descent * scale;
  const lineAdvance = size * lineHeight;
  const laid = lines.map((line, index): LaidLine => {
    let x = 0;
    const last = line.at(-1);
    const placed = visualOrder(line).map((piece) => {
      const rtl = piece.level % 2 === 1;
      // The line's logically last piece ends it: its trailing spaces take no room.
      const shown = piece === last && piece.trailing ? piece.text.slice(0, piece.text.length - piece.trailing.length) : piece.text;
      const shaped = shape(font, shown, rtl);
      const result = { text: shown, start: piece.start, x, width: shaped.advance * scale, level: piece.level, shaped };
      x += shaped.advance * scale;
      return result;
    });
    const lineWidth = x;
    const left = align === "left" ? ink : align === "right" ? width - ink - lineWidth : (width - lineWidth) / 2;
    return { pieces: placed.map((piece) => ({ ...piece, x: piece.x + left })), width: lineWidth, x: left, baseline: ascent + index * lineAdvance };
  });
  return {
    font,
    size,
    lines: laid,
    boxWidth: width,
    width: Math.max(0, ...laid.map((line) => line.width)) + 2 * ink,
    height: laid.length === 0 ? 0 : (laid.length - 1) * lineAdvance + ascent + descent + 2 * ink,
    lineAdvance,
    brokeWord,
  };
}
