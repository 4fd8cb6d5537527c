// The `composition` field of a video: what a render draws (docs/timeline.md, docs/renders.md).
// One schema serves the save (create, update, bulk: fieldRules of the videos resource) and the
// render (src/renders/composition.ts), so a layer the renderer cannot draw is refused when the
// video is written, with its path and a did-you-mean, not later when it renders.
import { z } from "zod";
import { mediaSource } from "./media-source.js";
import { MAX_DURATION_SECONDS, color, position, seconds, size, timing } from "./values.js";
import { checkCaptionSource, questionLayer, subtitlesLayer, textLayer } from "./text-layers.js";
import { transitionFields } from "./transitions.js";
import { FIT_MODES, LOUDNESS_DEFAULTS, SHAPES, soundFields } from "./sound-and-shape.js";

export { mediaSource, mediaUrl } from "./media-source.js";
export { MAX_DURATION_SECONDS, color, position, seconds, size, timing } from "./values.js";
export { TRANSITION_TYPES, transition, transitionFields, type Transition, type TransitionType } from "./transitions.js";
export { FIT_MODES, LOUDNESS_DEFAULTS, SHAPES, SOUND_ROLES } from "./sound-and-shape.js";
export { SUBTITLE_POSITIONS, subtitleGroup, subtitleStyle, subtitleWord, type SubtitleGroup, type SubtitleStyle } from "./text-layers.js";

const MAX_LAYERS = 100;

/** Fades of a visual layer: two clips that overlap, the second fading in, make a cross-fade. */
const fades = {
  fade_in: seconds.default(0).describe("Seconds over which the layer fades in from transparent."),
  fade_out: seconds.default(0).describe("Seconds over which the layer fades out to transparent before its end."),
};
/** How media fills its box; absent: `cover` in a version 2 composition, `fill` (stretched, as before) in version 1. */
const fit = z.enum(FIT_MODES).optional().describe("cover (fill the box, cropped), contain (inside the box, letterboxed transparent), fill (stretched), none (original size, centred, cropped to the box). Default cover (version 2), fill (version 1).");
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

const colorLayer = z.strictObject({ type: z.literal("color"), ...timing, color, ...transitionFields });

const imageLayer = z.strictObject({
  type: z.literal("image"),
  ...timing,
  src: mediaSource,
  ...box,
  opacity: z.number().min(0).max(1).default(1),
  motion: motion.optional(),
  fit,
  ...fades,
  ...transitionFields,
});

const videoLayer = z.strictObject({
  type: z.literal("video"),
  ...timing,
  src: mediaSource,
  ...box,
  offset: z.number().min(0).default(0).describe("Seconds into the source where the clip begins."),
  volume: z.number().min(0).max(4).default(0).describe("Linear gain of the clip's own sound; 0 (default) leaves it out. Above 0 the source must have sound."),
  speed: z.number().min(0.25).max(4).default(1).describe("Playback speed: 0.5 is half speed, 2 double; the sound keeps its pitch."),
  loop: z.boolean().default(false).describe("Plays the clip again from `offset` when it ends, until the layer ends."),
  fit,
  ...fades,
  role: soundFields.role,
  duck: soundFields.duck,
  ...transitionFields,
});

const audioLayer = z.strictObject({
  type: z.literal("audio"),
  ...timing,
  src: mediaSource,
  volume: z.number().min(0).max(4).default(1).describe("Linear gain: 1 leaves the source as it is."),
  offset: z.number().min(0).default(0).describe("Seconds into the source where playback begins."),
  ...soundFields,
});

const toneLayer = z.strictObject({
  type: z.literal("tone"),
  ...timing,
  frequency: z.number().min(20).max(20_000).default(440).describe("Hertz."),
  volume: z.number().min(0).max(1).default(0.2).describe("Peak amplitude, 0 to 1 of full scale."),
  ...soundFields,
});

/** A rectangle, rounded rectangle or circle, or a progress bar that fills over the layer's time. */
const shapeLayer = z.strictObject({
  type: z.literal("shape"),
  ...timing,
  shape: z.enum(SHAPES).default("rect"),
  ...box,
  color: color.default("#FFFFFFFF").describe("The fill (a progress bar's filled part)."),
  radius: z.number().int().min(0).max(4096).optional().describe("Corner radius in pixels (rounded_rect, progress_bar); default a quarter of the shorter side for rounded_rect, half the height for progress_bar."),
  stroke_color: color.optional(),
  stroke_width: z.number().int().min(0).max(500).default(0),
  track_color: color.optional().describe("progress_bar: the colour of its unfilled part; none when absent."),
  opacity: z.number().min(0).max(1).default(1),
  ...transitionFields,
});

export const LAYER_SCHEMAS = {
  color: colorLayer, image: imageLayer, video: videoLayer, text: textLayer, audio: audioLayer, tone: toneLayer,
  subtitles: subtitlesLayer, question: questionLayer, shape: shapeLayer,
} as const;
export const LAYER_TYPES = Object.keys(LAYER_SCHEMAS);

const layer = z.discriminatedUnion("type", [colorLayer, imageLayer, videoLayer, textLayer, audioLayer, toneLayer, subtitlesLayer, questionLayer, shapeLayer]);

/** Output loudness: two-pass EBU R128 to these targets, or `false` to keep levels as mixed. */
const loudness = z.union([
  z.literal(false),
  z.strictObject({
    integrated: z.number().min(-70).max(-5).default(LOUDNESS_DEFAULTS.integrated).describe("Integrated loudness target, LUFS."),
    true_peak: z.number().min(-9).max(0).default(LOUDNESS_DEFAULTS.true_peak).describe("True-peak ceiling, dBTP."),
  }),
]);

/** The composition as stored: defaults filled in, colours as `#RRGGBBAA`. Layer ends stay optional. */
export const compositionShape = z
  .strictObject({
    version: z.union([z.literal(1), z.literal(2)]).optional().describe("2 turns on the version 2 defaults (loudness -14 LUFS, fit cover, video fades on sound too); absent or 1 keeps a composition rendering as it did before them."),
    duration: z.number().positive().max(MAX_DURATION_SECONDS).describe("Seconds."),
    fps: z.number().int().min(1).max(60).default(30),
    background_color: color.default("#000000FF"),
    layers: z.array(layer).max(MAX_LAYERS).default([]).describe("Drawn in order: each layer over the ones before it."),
    loudness: loudness.optional().describe("Default in version 2: {integrated: -14, true_peak: -1}; in version 1: false (levels kept)."),
  })
  .superRefine((composition, context) => {
    const issue = (path: (string | number)[], message: string, type: string) => context.addIssue({ code: "custom", path, message, params: { type } });
    composition.layers.forEach((item, index) => {
      const end = item.end ?? composition.duration;
      if (item.start >= composition.duration) issue(["layers", index, "start"], `Must be less than the duration (${composition.duration}).`, "number.max");
      else if (end > composition.duration) issue(["layers", index, "end"], `Must be at most the duration (${composition.duration}).`, "number.max");
      else if (end <= item.start) issue(["layers", index, "end"], "Must be greater than start.", "number.min");
      if ((item.type === "image" || item.type === "video" || item.type === "audio" || item.type === "tone") && item.fade_in + item.fade_out > end - item.start) {
        issue(["layers", index, "fade_out"], "fade_in plus fade_out must fit in the layer's time.", "number.max");
      }
      const transitions = "transition_in" in item || "transition_out" in item ? (item as { transition_in?: { duration: number }; transition_out?: { duration: number } }) : undefined;
      if (transitions && (transitions.transition_in?.duration ?? 0) + (transitions.transition_out?.duration ?? 0) > end - item.start + 1e-9) {
        issue(["layers", index, transitions.transition_out ? "transition_out" : "transition_in", "duration"], "The in and out transitions must fit in the layer's time.", "number.max");
      }
      if (item.type === "question" && item.correct !== undefined && item.correct >= item.answers.length) {
        issue(["layers", index, "correct"], `Must be an index of answers (0 to ${item.answers.length - 1}).`, "number.max");
      }
      if (item.type === "subtitles") checkCaptionSource(item, (path, message, type) => issue(["layers", index, ...path], message, type));
    });
  })
  .describe("What a render draws: duration, frame rate, background and layers (docs/timeline.md).");

export type StoredComposition = z.output<typeof compositionShape>;
type StoredLayer = StoredComposition["layers"][number];
/** A layer with its end filled in (the renderer's view). */
export type CompositionLayer = StoredLayer & { end: number };
export type Composition = Omit<StoredComposition, "layers"> & { layers: CompositionLayer[] };
export type LayerOf<T extends CompositionLayer["type"]> = Extract<StoredLayer, { type: T }> & { end: number };
