// The text layers of a composition: `text`, `subtitles` (captions burned in with libass) and
// `question` (a quiz card). Split from ./composition.ts, which puts them in the layer union; the
// renderer draws them through src/renders/text/.
import { z } from "zod";
import { color, position, timing } from "./values.js";

export const textLayer = z.strictObject({
  type: z.literal("text"),
  ...timing,
  text: z.string().min(1).max(2000),
  x: z.union([position, z.literal("center")]).default("center"),
  y: z.union([position, z.literal("center")]).default("center"),
  font_size: z.number().int().min(8).max(1000).default(64),
  color: color.default("#FFFFFFFF"),
  box_color: color.optional().describe("Draws a box behind the text in this colour."),
  box_padding: z.number().int().min(0).max(500).default(16).describe("Pixels between the text and the edge of its box."),
});

export const SUBTITLE_POSITIONS = ["bottom", "center", "top"] as const;

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
  font_size: z.number().int().min(8).max(400).default(72),
  color: color.default("#FFFFFFFF"),
  emphasis_color: color.default("#FFD400FF"),
  outline_color: color.default("#000000FF"),
  outline_width: z.number().min(0).max(20).default(4),
  position: z.enum(SUBTITLE_POSITIONS).default("bottom"),
  margin: z.number().int().min(0).max(2000).default(160).describe("Pixels from the edge (bottom or top)."),
  uppercase: z.boolean().default(false),
  highlight_current_word: z.boolean().default(false).describe("Colours the word being spoken in emphasis_color."),
});

/** Subtitles burned in with libass; `groups` usually come from subtitles.generate. */
export const subtitlesLayer = z.strictObject({
  type: z.literal("subtitles"),
  ...timing,
  groups: z.array(subtitleGroup).max(5000),
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
