// The checks of a composition's text that depend on its frame and fonts, run when a video is
// saved (the videos resource's beforeWrite, with the video's format) and when a render is queued
// (with the render's format and the merge values filled in), before any credit is spent:
// - font pre-flight: characters the layer's font has no glyph for are an issue at the layer's
//   `font` (or `style.font`) naming them and a family of the catalog that draws them;
// - overflow: a text layer that does not fit its box at its size (or, with auto_fit, at its
//   smallest size) is an issue at its `text` saying by how much; a caption that does not fit even
//   at its smallest size is an issue at the layer's `words`/`groups`.
// Strings holding `{{name}}` merge fields are checked once filled (at renders.create); a text
// drawn in a `font_url` font is checked when the font is fetched, at render time.
import { familyCovering, missingCharacters } from "../../media/fonts/coverage.js";
import type { ValidationIssue } from "../../validation/issues.js";
import { captionGroups } from "./caption-groups.js";
import { planCaption } from "./caption-fit.js";
import type { StoredComposition } from "./composition.js";
import { frameOf } from "./frame.js";
import { holdsMergeField } from "./merge-fields.js";
import { catalogFont, planText } from "./text-fit.js";

const list = (chars: readonly string[]) => chars.slice(0, 20).map((char) => `'${char}' (U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`).join(", ") + (chars.length > 20 ? ` and ${chars.length - 20} more` : "");

/** The issue of characters a font cannot draw, or undefined when it draws them all. */
export function glyphIssue(path: string, fontLabel: string, weight: number, missing: readonly string[]): ValidationIssue | undefined {
  if (missing.length === 0) return undefined;
  const covering = familyCovering(missing, weight);
  return {
    path,
    type: "font.missing_glyphs",
    message: `The font '${fontLabel}' has no glyph for ${list(missing)}.${covering ? ` The font '${covering.name}' (${covering.display_name}) draws them.` : " No font of the catalog draws them all."}`,
    ...(covering && { did_you_mean: covering.name }),
  };
}

type Layer = StoredComposition["layers"][number];

function textIssues(layer: Extract<Layer, { type: "text" }>, at: string, format: string | null | undefined): ValidationIssue[] {
  if (holdsMergeField(layer.text) || holdsMergeField(layer.font) || layer.font_url) return [];
  const font = catalogFont(layer.font, layer.font_weight);
  const glyphs = glyphIssue(`${at}.font`, layer.font, layer.font_weight, missingCharacters(font, layer.text));
  if (glyphs) return [glyphs];
  const plan = planText(layer, frameOf(format), font);
  return plan.overflow ? [{ path: `${at}.text`, type: "text.overflow", message: `The text does not fit: ${plan.overflow}${layer.auto_fit ? "" : " auto_fit shrinks it to fit."}` }] : [];
}

function captionIssues(layer: Extract<Layer, { type: "subtitles" }>, at: string, format: string | null | undefined): ValidationIssue[] {
  const { style } = layer;
  if (holdsMergeField(style.font)) return [];
  const groups = captionGroups(layer).filter((group) => !group.words.some((word) => holdsMergeField(word.word)));
  const font = catalogFont(style.font, style.font_weight);
  const words = groups.flatMap((group) => group.words.map((word) => (style.uppercase ? word.word.toUpperCase() : word.word)));
  const glyphs = glyphIssue(`${at}.style.font`, style.font, style.font_weight, missingCharacters(font, words.join(" ")));
  if (glyphs) return [glyphs];
  const frame = frameOf(format);
  const source = (["groups", "words", "srt", "vtt"] as const).find((field) => layer[field] !== undefined) ?? "groups";
  for (const group of groups) {
    const plan = planCaption(group, style, frame, font);
    if (plan.overflow) return [{ path: `${at}.${source}`, type: "text.overflow", message: plan.overflow }];
  }
  return [];
}

/** Every font and overflow issue of a composition's text on the frame of `format`. */
export function checkCompositionText(composition: Pick<StoredComposition, "layers">, format: string | null | undefined, prefix = "composition"): ValidationIssue[] {
  return composition.layers.flatMap((layer, index) => {
    const at = `${prefix}.layers.${index}`;
    if (layer.type === "text") return textIssues(layer, at, format);
    if (layer.type === "subtitles") return captionIssues(layer, at, format);
    return [];
  });
}

/**
 * A font that draws `text` for compositions the service writes itself (hand-overs, exports,
 * narration): `preferred` when it draws every character, else the catalog family that does, else
 * `preferred` with the characters no family draws (an emoji without an emoji font) left out, so a
 * generated composition always passes the pre-flight.
 */
export function drawableText(text: string, preferred = "sans", weight = 400): { font: string; text: string } {
  const missing = missingCharacters(catalogFont(preferred, weight), text);
  if (missing.length === 0) return { font: preferred, text };
  const undrawable = new Set(missing.filter((char) => !familyCovering([char], weight)));
  const kept = undrawable.size === 0 ? text : [...text].filter((char) => !undrawable.has(char)).join("").replace(/\s+/g, " ").trim() || " ";
  const rest = missing.filter((char) => !undrawable.has(char));
  return { font: rest.length === 0 ? preferred : (familyCovering(rest, weight)?.name ?? preferred), text: kept };
}
