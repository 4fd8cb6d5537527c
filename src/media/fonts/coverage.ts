// Fonts opened with fontkit (TrueType, OpenType, collections, WOFF, WOFF2), and which characters a
// font can draw: the font pre-flight refuses text with characters its font has no glyph for, and
// names a family of the catalog that has them.
import * as fontkit from "fontkit";
import { faceFor, fontCatalog, type FontFace, type FontFamily } from "./catalog.js";

export type Font = fontkit.Font;

const opened = new Map<string, Font>();

function asFont(loaded: fontkit.Font | fontkit.FontCollection, face: string | undefined, label: string): Font {
  if ("fonts" in loaded && Array.isArray((loaded).fonts)) {
    const collection = loaded;
    const picked = face ? collection.getFont(face) : collection.fonts[0];
    if (!picked) throw new Error(`${label} has no face ${face ?? ""}`);
    return picked;
  }
  return loaded as Font;
}

/** A face of the catalog, opened once per process. */
export function openFace(face: FontFace): Font {
  const key = `${face.file}#${face.face ?? ""}`;
  let font = opened.get(key);
  if (!font) {
    font = asFont(fontkit.openSync(face.file, face.face), face.face, face.file);
    opened.set(key, font);
  }
  return font;
}

/** A font from bytes (a `font_url` download): TTF, OTF, WOFF or WOFF2; throws when it is none of them. */
export function fontFromBytes(bytes: Buffer, label: string): Font {
  const font = asFont(fontkit.create(bytes), undefined, label);
  if (!font.unitsPerEm || typeof font.layout !== "function") throw new Error(`${label} is not a font`);
  return font;
}

/** Characters no font needs a glyph for: spaces, line breaks, joiners, variation selectors. */
const INVISIBLE = /[\s\p{Cc}\p{Cf}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]/u;

/** The distinct characters of `text` the font has no glyph for, in order of appearance. */
export function missingCharacters(font: Font, text: string): string[] {
  const missing = new Set<string>();
  for (const char of text) {
    if (INVISIBLE.test(char) || missing.has(char)) continue;
    if (!font.hasGlyphForCodePoint(char.codePointAt(0)!)) missing.add(char);
  }
  return [...missing];
}

/** Catalog families to try first for a script, before every other family in catalog order. */
const SCRIPT_HINTS: [RegExp, string[]][] = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, ["noto_sans_cjk_jp"]],
  [/\p{Script=Hangul}/u, ["noto_sans_cjk_kr"]],
  [/\p{Script=Han}/u, ["noto_sans_cjk_sc", "noto_sans_cjk_tc"]],
  [/\p{Script=Arabic}/u, ["noto_sans_arabic"]],
  [/\p{Script=Hebrew}/u, ["noto_sans_hebrew"]],
  [/\p{Script=Devanagari}/u, ["noto_sans_devanagari"]],
  [/\p{Script=Thai}/u, ["noto_sans_thai"]],
  [/\p{Script=Bengali}/u, ["noto_sans_bengali"]],
  [/[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]/u, ["sans", "noto_sans"]],
];

/** A family that can draw every character given (at the weight given), or undefined. */
export function familyCovering(chars: readonly string[], weight = 400): FontFamily | undefined {
  if (chars.length === 0) return undefined;
  const catalog = fontCatalog();
  const hinted = SCRIPT_HINTS.filter(([pattern]) => chars.some((char) => pattern.test(char))).flatMap(([, names]) => names);
  const order = [...new Set([...hinted, ...catalog.keys()])];
  for (const name of order) {
    const family = catalog.get(name);
    if (family && missingCharacters(openFace(faceFor(family, weight)), chars.join("")).length === 0) return family;
  }
  return undefined;
}
