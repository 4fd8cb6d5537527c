// The text layers of a composition: `text`, `subtitles` (captions) and `question` (a quiz card).
// Split from ./composition.ts, which puts them in the layer union; the renderer draws them through
// src/renders/text/. What depends on the frame (a box that fits, characters its font can draw) is
// checked by ./text-checks.ts when the video is saved and when a render is queued.
import { z } from "zod";
import { fontCatalog, fontFamilyNames, DEFAULT_FONT } from "../../media/fonts/catalog.js";
import { didYouMean } from "../../validation/did-you-mean.js";
import { holdsMergeField } from "./merge-fields.js";
import { mediaSource } from "./media-source.js";
import { transitionFields } from "./transitions.js";
import { color, position, seconds, size, timing } from "./values.js";

/** A family of the font catalog (GET /api/v1 lists them in `fonts`), or a `{{name}}` merge field. */
export const fontName = z
  .string()
  .min(1)
  .max(100)
  .superRefine((value, context) => {
    if (holdsMergeField(value) || fontCatalog().has(value)) return;
    const allowed = fontFamilyNames();
    const suggestion = didYouMean(value, allowed);
    context.addIssue({
      code: "custom",
      message: `Unknown font '${value}'.${suggestion ? ` Did you mean '${suggestion}'?` : ""} GET /api/v1 lists the families (fonts).`,
      params: { type: "any.only", allowed, ...(suggestion && { did_you_mean: suggestion }) },
    });
  })
  .describe("A font family the service ships (listed in GET /api/v1, `fonts`), e.g. sans, serif, mono, display, noto_sans_arabic, noto_sans_cjk_jp.");

export const FONT_WEIGHTS = { thin: 100, extra_light: 200, light: 300, normal: 400, regular: 400, medium: 500, semi_bold: 600, bold: 700, extra_bold: 800, black: 900 } as const;

/** 100–900, or a name (normal, bold, …): stored as the number. */
export const fontWeight = z
  .union([z.number().int().min(100).max(900), z.enum(Object.keys(FONT_WEIGHTS) as [keyof typeof FONT_WEIGHTS, ...(keyof typeof FONT_WEIGHTS)[]])])
  .transform((value) => (typeof value === "number" ? value : FONT_WEIGHTS[value]))
  .describe("100 (thin) to 900 (black), or normal/bold/…; the family's nearest weight is drawn.");

export const TEXT_ALIGNS = ["left", "center", "right"] as const;
export const TEXT_ANIMATIONS = ["fade", "slide_up", "pop", "typewriter", "word_by_word"] as const;

export const textShadow = z.strictObject({
  color: color.default("#000000A0"),
  x: z.number().min(-100).max(100).default(4).describe("Pixels to the right."),
  y: z.number().min(-100).max(100).default(4).describe("Pixels down."),
  blur: z.number().min(0).max(50).default(6).describe("Blur radius, pixels."),
});

export const textAnimation = z.strictObject({
  type: z.enum(TEXT_ANIMATIONS),
  duration: seconds.default(0.6).describe("Seconds from the layer's start the animation takes."),
});

export const textLayer = z.strictObject({
  type: z.literal("text"),
  ...timing,
  text: z.string().min(1).max(2000),
  x: z.union([position, z.literal("center")]).default("center").describe("Left edge of the text's box, pixels, or center."),
  y: z.union([position, z.literal("center")]).default("center").describe("Top of the text, pixels, or center."),
  width: size.optional().describe("Width of the box the text wraps in, pixels; default the frame's safe width (from x to the safe area's right edge when x is a number)."),
  height: size.optional().describe("Height of the box, pixels; default the rest of the frame below y (the safe height when y is center)."),
  align: z.enum(TEXT_ALIGNS).optional().describe("Alignment of the lines in the box: center when x is center, else left."),
  line_height: z.number().min(0.8).max(3).default(1.2).describe("Baseline to baseline, times font_size."),
  max_lines: z.number().int().min(1).max(100).optional().describe("At most this many lines; more is an overflow (auto_fit shrinks the text instead)."),
  auto_fit: z.boolean().default(false).describe("Shrink font_size (down to min_font_size) until the text fits its box and max_lines."),
  min_font_size: z.number().int().min(8).max(1000).optional().describe("Smallest size auto_fit goes down to; default a quarter of font_size (at least 8)."),
  font: fontName.default(DEFAULT_FONT),
  font_url: mediaSource.optional().describe("A TTF, OTF, WOFF or WOFF2 font to draw in instead of `font` (fetched through the URL guard at render time; its glyphs are checked then)."),
  font_weight: fontWeight.default(400),
  font_size: z.number().int().min(8).max(1000).default(64),
  color: color.default("#FFFFFFFF"),
  box_color: color.optional().describe("Draws a box behind the text in this colour."),
  box_padding: z.number().int().min(0).max(500).default(16).describe("Pixels between the text and the edge of its box."),
  stroke_color: color.default("#000000FF").describe("Colour of the outline (with stroke_width)."),
  stroke_width: z.number().min(0).max(50).default(0).describe("Outline around each glyph, pixels; 0 draws none."),
  shadow: textShadow.optional().describe("A drop shadow; {} takes the defaults."),
  animation: textAnimation.optional().describe("How the text appears over its first `duration` seconds."),
  ...transitionFields,
});

export const SUBTITLE_POSITIONS = ["bottom", "center", "top"] as const;
export const CAPTION_PRESETS = ["plain", "karaoke", "word_pop", "boxed_word"] as const;

/** A word of a subtitle group, timed in seconds from the start of the video. */
export const subtitleWord = z.strictObject({
  word: z.string().min(1).max(200),
  start: z.number().min(0),
  end: z.number().min(0),
  emphasis: z.boolean().default(false).describe("Drawn in the style's emphasis colour."),
});

/** Words shown together, from the first word's start to the last word's end (or the group's own times). */
export const subtitleGroup = z.strictObject({
  start: z.number().min(0),
  end: z.number().positive(),
  words: z.array(subtitleWord).min(1).max(100),
});

export const subtitleStyle = z.strictObject({
  preset: z.enum(CAPTION_PRESETS).optional().describe("plain, karaoke (the spoken word in emphasis_color), word_pop (words appear as spoken, the spoken one larger), boxed_word (a box behind the spoken word); default karaoke with highlight_current_word, else plain."),
  font: fontName.default(DEFAULT_FONT),
  font_weight: fontWeight.default(700),
  font_size: z.number().int().min(8).max(400).default(72),
  color: color.default("#FFFFFFFF"),
  emphasis_color: color.default("#FFD400FF"),
  box_color: color.optional().describe("boxed_word: the box behind the spoken word (default emphasis_color); other presets: a box behind each caption."),
  outline_color: color.default("#000000FF"),
  outline_width: z.number().min(0).max(20).default(4),
  position: z.enum(SUBTITLE_POSITIONS).default("bottom"),
  margin: z.number().int().min(0).max(2000).default(160).describe("Pixels from the edge (bottom or top); never less than the format's safe area."),
  uppercase: z.boolean().default(false),
  highlight_current_word: z.boolean().default(false).describe("Colours the word being spoken in emphasis_color (the karaoke preset)."),
  max_lines: z.number().int().min(1).max(6).default(3).describe("A caption longer than this many lines is drawn smaller until it fits."),
  line_height: z.number().min(0.8).max(3).default(1.15),
});

/** A word with its time, as `words` takes it. */
const timedWord = z.strictObject({ word: z.string().min(1).max(200), start: z.number().min(0), end: z.number().min(0) });

/**
 * Captions drawn over the video. The words come from exactly one of `groups` (as subtitles.generate
 * writes them), `words` (grouped here, `words_per_group` at most), `srt` or `vtt` (a cue per
 * group, its words spread over the cue's time).
 */
export const subtitlesLayer = z.strictObject({
  type: z.literal("subtitles"),
  ...timing,
  groups: z.array(subtitleGroup).max(5000).optional(),
  words: z.array(timedWord).max(20_000).optional().describe("Timed words, grouped into captions of at most words_per_group (a pause or a sentence's end also closes one)."),
  srt: z.string().min(1).max(500_000).optional().describe("SubRip text: each cue a caption."),
  vtt: z.string().min(1).max(500_000).optional().describe("WebVTT text: each cue a caption."),
  words_per_group: z.number().int().min(1).max(20).default(3),
  style: subtitleStyle.default(() => subtitleStyle.parse({})),
});

/** A quiz question: the question, its answers, and from `reveal_at` the right answer highlighted. */
export const questionLayer = z.strictObject({
  type: z.literal("question"),
  ...timing,
  question: z.string().min(1).max(500),
  answers: z.array(z.string().min(1).max(200)).min(1).max(6),
  correct: z.number().int().min(0).max(5).optional().describe("Index of the right answer in answers."),
  reveal_at: z.number().min(0).optional().describe("Seconds from the start of the video when the right answer is shown; the layer's last second when absent."),
  font_size: z.number().int().min(8).max(400).default(64),
  color: color.default("#FFFFFFFF"),
  correct_color: color.default("#2ECC71FF"),
  box_color: color.default("#000000A0"),
});

export type SubtitleStyle = z.output<typeof subtitleStyle>;
export type SubtitleGroup = z.output<typeof subtitleGroup>;
export type TextLayerShape = z.output<typeof textLayer>;

type IssueAt = (path: (string | number)[], message: string, type: string) => void;

/** A subtitles layer names its words exactly once (groups, words, srt or vtt), each group timed forwards. */
export function checkCaptionSource(layer: z.output<typeof subtitlesLayer>, issue: IssueAt): void {
  const given = (["groups", "words", "srt", "vtt"] as const).filter((field) => layer[field] !== undefined);
  if (given.length === 0) issue(["groups"], "A subtitles layer needs its words: one of groups, words, srt or vtt.", "any.required");
  if (given.length > 1) issue([given[1]!], `Give one of groups, words, srt or vtt, not ${given.join(" and ")}.`, "object.xor");
  layer.groups?.forEach((group, groupIndex) => {
    if (group.end <= group.start) issue(["groups", groupIndex, "end"], "Must be greater than start.", "number.min");
  });
  layer.words?.forEach((word, wordIndex) => {
    if (word.end < word.start) issue(["words", wordIndex, "end"], "Must be at least start.", "number.min");
  });
}
