// The `composition` field of a video: what a render draws (docs/timeline.md, docs/renders.md).
// One schema serves the save (create, update, bulk: fieldRules of the videos resource) and the
// render (src/renders/composition.ts), so a layer the renderer cannot draw is refused when the
// video is written, with its path and a did-you-mean, not later when it renders.
import { z } from "zod";

export const MAX_DURATION_SECONDS = 600;
const MAX_LAYERS = 100;

/** Colour names accepted besides `#RRGGBB` and `#RRGGBBAA`. */
const NAMED_COLORS: Readonly<Record<string, string>> = {
  black: "#000000", white: "#FFFFFF", red: "#FF0000", green: "#008000", blue: "#0000FF", yellow: "#FFFF00",
  cyan: "#00FFFF", magenta: "#FF00FF", gray: "#808080", grey: "#808080", orange: "#FFA500", purple: "#800080",
  pink: "#FFC0CB", brown: "#A52A2A", transparent: "#00000000",
};

/** A colour, normalised to `#RRGGBBAA`. */
export const color = z
  .string()
  .refine((value) => /^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(value) || Object.hasOwn(NAMED_COLORS, value.toLowerCase()), {
    message: `Expected #RRGGBB, #RRGGBBAA or one of: ${Object.keys(NAMED_COLORS).join(", ")}.`,
    params: { type: "string.color" },
  })
  .transform((value) => {
    const hex = (NAMED_COLORS[value.toLowerCase()] ?? value).toUpperCase();
    return hex.length === 7 ? `${hex}FF` : hex;
  });

export const mediaUrl = z.url({ protocol: /^https?$/, error: "Expected an http or https URL." }).max(2048);
const position = z.number().int().min(-10_000).max(10_000);
const size = z.number().int().min(1).max(8192);
const seconds = z.number().min(0).max(MAX_DURATION_SECONDS);
const timing = {
  start: z.number().min(0).default(0).describe("Seconds from the start of the video."),
  end: z.number().positive().optional().describe("Seconds from the start of the video; the video's end when absent."),
};
/** Fades of a visual layer: two clips that overlap, the second fading in, make a cross-fade. */
const fades = {
  fade_in: seconds.default(0).describe("Seconds over which the layer fades in from transparent."),
  fade_out: seconds.default(0).describe("Seconds over which the layer fades out to transparent before its end."),
};
/** A box on the frame; width and height default to the whole frame. */
const box = {
  x: position.default(0),
  y: position.default(0),
  width: size.optional().describe("Pixels; the frame's width when absent."),
  height: size.optional().describe("Pixels; the frame's height when absent."),
};

export const MOTIONS = ["zoom_in", "zoom_out", "pan_left", "pan_right", "pan_up", "pan_down"] as const;

/** Ken Burns motion of a still: a slow zoom or pan over the layer's time. */
const motion = z.strictObject({
  type: z.enum(MOTIONS),
  /** How far it zooms (zoom_*), or the zoom a pan runs at. */
  zoom: z.number().min(1).max(2).default(1.2),
});

const colorLayer = z.strictObject({ type: z.literal("color"), ...timing, color });

const imageLayer = z.strictObject({
  type: z.literal("image"),
  ...timing,
  src: mediaUrl,
  ...box,
  opacity: z.number().min(0).max(1).default(1),
  motion: motion.optional(),
  ...fades,
});

const videoLayer = z.strictObject({
  type: z.literal("video"),
  ...timing,
  src: mediaUrl,
  ...box,
  offset: z.number().min(0).default(0).describe("Seconds into the source where the clip begins."),
  volume: z.number().min(0).max(4).default(0).describe("Linear gain of the clip's own sound; 0 (default) leaves it out. Above 0 the source must have sound."),
  ...fades,
});

const textLayer = z.strictObject({
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

const audioLayer = z.strictObject({
  type: z.literal("audio"),
  ...timing,
  src: mediaUrl,
  volume: z.number().min(0).max(4).default(1).describe("Linear gain: 1 leaves the source as it is."),
  offset: z.number().min(0).default(0).describe("Seconds into the source where playback begins."),
});

const toneLayer = z.strictObject({
  type: z.literal("tone"),
  ...timing,
  frequency: z.number().min(20).max(20_000).default(440).describe("Hertz."),
  volume: z.number().min(0).max(1).default(0.2).describe("Peak amplitude, 0 to 1 of full scale."),
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
const subtitlesLayer = z.strictObject({
  type: z.literal("subtitles"),
  ...timing,
  groups: z.array(subtitleGroup).max(5000),
  style: subtitleStyle.default(() => subtitleStyle.parse({})),
});

/** A quiz question: the question, its answers, and from `reveal_at` the right answer highlighted. */
const questionLayer = z.strictObject({
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

export const LAYER_SCHEMAS = {
  color: colorLayer, image: imageLayer, video: videoLayer, text: textLayer, audio: audioLayer, tone: toneLayer,
  subtitles: subtitlesLayer, question: questionLayer,
} as const;
export const LAYER_TYPES = Object.keys(LAYER_SCHEMAS);

const layer = z.discriminatedUnion("type", [colorLayer, imageLayer, videoLayer, textLayer, audioLayer, toneLayer, subtitlesLayer, questionLayer]);

/** The composition as stored: defaults filled in, colours as `#RRGGBBAA`. Layer ends stay optional. */
export const compositionShape = z
  .strictObject({
    duration: z.number().positive().max(MAX_DURATION_SECONDS).describe("Seconds."),
    fps: z.number().int().min(1).max(60).default(30),
    background_color: color.default("#000000FF"),
    layers: z.array(layer).max(MAX_LAYERS).default([]).describe("Drawn in order: each layer over the ones before it."),
  })
  .superRefine((composition, context) => {
    const issue = (path: (string | number)[], message: string, type: string) => context.addIssue({ code: "custom", path, message, params: { type } });
    composition.layers.forEach((item, index) => {
      const end = item.end ?? composition.duration;
      if (item.start >= composition.duration) issue(["layers", index, "start"], `Must be less than the duration (${composition.duration}).`, "number.max");
      else if (end > composition.duration) issue(["layers", index, "end"], `Must be at most the duration (${composition.duration}).`, "number.max");
      else if (end <= item.start) issue(["layers", index, "end"], "Must be greater than start.", "number.min");
      if ((item.type === "image" || item.type === "video") && item.fade_in + item.fade_out > end - item.start) {
        issue(["layers", index, "fade_out"], "fade_in plus fade_out must fit in the layer's time.", "number.max");
      }
      if (item.type === "question" && item.correct !== undefined && item.correct >= item.answers.length) {
        issue(["layers", index, "correct"], `Must be an index of answers (0 to ${item.answers.length - 1}).`, "number.max");
      }
      if (item.type === "subtitles") {
        item.groups.forEach((group, groupIndex) => {
          if (group.end <= group.start) issue(["layers", index, "groups", groupIndex, "end"], "Must be greater than start.", "number.min");
        });
      }
    });
  })
  .describe("What a render draws: duration, frame rate, background and layers (docs/timeline.md).");

export type StoredComposition = z.output<typeof compositionShape>;
type StoredLayer = StoredComposition["layers"][number];
/** A layer with its end filled in (the renderer's view). */
export type CompositionLayer = StoredLayer & { end: number };
export type Composition = Omit<StoredComposition, "layers"> & { layers: CompositionLayer[] };
export type LayerOf<T extends CompositionLayer["type"]> = Extract<StoredLayer, { type: T }> & { end: number };
export type SubtitleStyle = z.output<typeof subtitleStyle>;
export type SubtitleGroup = z.output<typeof subtitleGroup>;
