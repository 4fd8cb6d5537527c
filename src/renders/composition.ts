// The composition a render draws: a video's `composition` column, in the format below (documented
// with a full example in docs/renders.md). Parsing is strict: unknown fields, unknown layer types,
// out-of-range numbers and timings past the end are refused with 422 validation_failed, each issue
// at its path under `composition` (e.g. `composition.layers.2.src`).
import { z } from "zod";
import { toIssues, validationFailed } from "../validation/issues.js";
import { VIDEO_FORMATS } from "../videos/resource.js";

/** Every format a video can have renders (FORMAT_SIZES gives each its picture size). */
export const RENDER_FORMATS = VIDEO_FORMATS;
export type RenderFormat = (typeof RENDER_FORMATS)[number];

/** Output picture size of each video_format. */
export const FORMAT_SIZES: Readonly<Record<RenderFormat, { width: number; height: number }>> = {
  portrait: { width: 1080, height: 1920 },
  landscape: { width: 1920, height: 1080 },
  square: { width: 1080, height: 1080 },
};

export function isRenderFormat(value: unknown): value is RenderFormat {
  return typeof value === "string" && (RENDER_FORMATS as readonly string[]).includes(value);
}

const MAX_DURATION_SECONDS = 600;
const MAX_LAYERS = 100;

/** Colour names accepted besides `#RRGGBB` and `#RRGGBBAA`. */
const NAMED_COLORS: Readonly<Record<string, string>> = {
  black: "#000000", white: "#FFFFFF", red: "#FF0000", green: "#008000", blue: "#0000FF", yellow: "#FFFF00",
  cyan: "#00FFFF", magenta: "#FF00FF", gray: "#808080", grey: "#808080", orange: "#FFA500", purple: "#800080",
  pink: "#FFC0CB", brown: "#A52A2A", transparent: "#00000000",
};

/** A colour, normalised to `#RRGGBBAA`. */
const color = z
  .string()
  .refine((value) => /^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(value) || Object.hasOwn(NAMED_COLORS, value.toLowerCase()), {
    message: `Expected #RRGGBB, #RRGGBBAA or one of: ${Object.keys(NAMED_COLORS).join(", ")}.`,
    params: { type: "string.color" },
  })
  .transform((value) => {
    const hex = (NAMED_COLORS[value.toLowerCase()] ?? value).toUpperCase();
    return hex.length === 7 ? `${hex}FF` : hex;
  });

const mediaUrl = z.url({ protocol: /^https?$/, error: "Expected an http or https URL." }).max(2048);
const position = z.number().int().min(-10_000).max(10_000);
const timing = {
  /** Seconds from the start of the video. */
  start: z.number().min(0).default(0),
  /** Seconds from the start of the video; the video's end when absent. */
  end: z.number().positive().optional(),
};

const colorLayer = z.strictObject({
  type: z.literal("color"),
  ...timing,
  color,
});

const imageLayer = z.strictObject({
  type: z.literal("image"),
  ...timing,
  src: mediaUrl,
  x: position.default(0),
  y: position.default(0),
  width: z.number().int().min(1).max(8192),
  height: z.number().int().min(1).max(8192),
  opacity: z.number().min(0).max(1).default(1),
});

const textLayer = z.strictObject({
  type: z.literal("text"),
  ...timing,
  text: z.string().min(1).max(2000),
  x: z.union([position, z.literal("center")]).default("center"),
  y: z.union([position, z.literal("center")]).default("center"),
  font_size: z.number().int().min(8).max(1000).default(64),
  color: color.default("#FFFFFF"),
  /** Draws a box behind the text in this colour. */
  box_color: color.optional(),
  /** Pixels between the text and the edge of its box. */
  box_padding: z.number().int().min(0).max(500).default(16),
});

const audioLayer = z.strictObject({
  type: z.literal("audio"),
  ...timing,
  src: mediaUrl,
  /** Linear gain: 1 leaves the source as it is. */
  volume: z.number().min(0).max(4).default(1),
  /** Seconds into the source where playback begins. */
  offset: z.number().min(0).default(0),
});

const toneLayer = z.strictObject({
  type: z.literal("tone"),
  ...timing,
  /** Hertz. */
  frequency: z.number().min(20).max(20_000).default(440),
  /** Peak amplitude, 0 to 1 of full scale. */
  volume: z.number().min(0).max(1).default(0.2),
});

const LAYER_SCHEMAS = { color: colorLayer, image: imageLayer, text: textLayer, audio: audioLayer, tone: toneLayer } as const;
const LAYER_TYPES = Object.keys(LAYER_SCHEMAS);

const layer = z.discriminatedUnion("type", [colorLayer, imageLayer, textLayer, audioLayer, toneLayer]);

const compositionSchema = z
  .strictObject({
    /** Seconds. */
    duration: z.number().positive().max(MAX_DURATION_SECONDS),
    fps: z.number().int().min(1).max(60).default(30),
    background_color: color.default("#000000"),
    /** Drawn in order: each layer over the ones before it. */
    layers: z.array(layer).max(MAX_LAYERS).default([]),
  })
  .superRefine((composition, context) => {
    composition.layers.forEach((item, index) => {
      const end = item.end ?? composition.duration;
      if (item.start >= composition.duration) {
        context.addIssue({ code: "custom", path: ["layers", index, "start"], message: `Must be less than the duration (${composition.duration}).`, params: { type: "number.max" } });
      } else if (end > composition.duration) {
        context.addIssue({ code: "custom", path: ["layers", index, "end"], message: `Must be at most the duration (${composition.duration}).`, params: { type: "number.max" } });
      } else if (end <= item.start) {
        context.addIssue({ code: "custom", path: ["layers", index, "end"], message: "Must be greater than start.", params: { type: "number.min" } });
      }
    });
  })
  .transform((composition) => ({
    ...composition,
    layers: composition.layers.map((item) => ({ ...item, end: item.end ?? composition.duration })),
  }));

export type Composition = z.output<typeof compositionSchema>;
type CompositionLayer = Composition["layers"][number];
export type LayerOf<T extends CompositionLayer["type"]> = Extract<CompositionLayer, { type: T }>;

/** Layers whose `src` a render downloads. */
export function mediaLayers(composition: Composition): { index: number; layer: LayerOf<"image"> | LayerOf<"audio"> }[] {
  return composition.layers.flatMap((item, index) => (item.type === "image" || item.type === "audio" ? [{ index, layer: item }] : []));
}

const PREFIX = "composition";

/** Parses a composition, or throws 422 validation_failed with every issue under `composition.`. */
export function parseComposition(value: unknown): Composition {
  if (value === null || value === undefined) {
    throw validationFailed([{ path: PREFIX, message: "The video has no composition.", type: "any.required" }]);
  }
  if (typeof value !== "object" || Array.isArray(value)) {
    throw validationFailed([{ path: PREFIX, message: "The composition must be a JSON object.", type: "object.base" }]);
  }
  const result = compositionSchema.safeParse(value);
  if (result.success) return result.data;
  const layers = (value as { layers?: unknown }).layers;
  const issues = toIssues(result.error, compositionSchema, value).map((issue) => {
    const inLayer = /^layers\.(\d+)\.(.+)$/.exec(issue.path);
    if (inLayer && inLayer[2] === "type" && issue.type === "any.invalid") {
      // A layer whose type is not one of ours: say which types there are.
      issue = { ...issue, message: `Must be one of: ${LAYER_TYPES.join(", ")}.`, type: "any.only", allowed: LAYER_TYPES };
    } else if (inLayer && issue.type === "object.unknown") {
      // The generic lookup cannot see through the union: list the fields of this layer's type.
      const type = Array.isArray(layers) ? (layers[Number(inLayer[1])] as { type?: unknown } | undefined)?.type : undefined;
      const schema = typeof type === "string" ? LAYER_SCHEMAS[type as keyof typeof LAYER_SCHEMAS] : undefined;
      if (schema) issue = { ...issue, allowed: Object.keys(schema.shape) };
    }
    return { ...issue, path: issue.path ? `${PREFIX}.${issue.path}` : PREFIX };
  });
  throw validationFailed(issues, `Invalid composition: ${issues[0]?.path}: ${issues[0]?.message}`);
}
