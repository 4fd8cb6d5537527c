// The composition a render draws: a video's `composition` column, in the format of
// src/video-model/timeline/composition.ts (the timeline model, checked when a video is saved; documented
// with a full example in docs/renders.md). Parsing is strict: unknown fields, unknown layer types,
// out-of-range numbers and timings past the end are refused with 422 validation_failed, each issue
// at its path under `composition` (e.g. `composition.layers.2.src`). The renderer's view fills in
// each layer's end.
import { toIssues, validationFailed } from "../validation/issues.js";
import { VIDEO_FORMATS } from "../contract.js";
import { compositionShape, fillMergeFields, type Composition, type LayerOf } from "../video-model/index.js";

/** Every format a video can have renders (FORMAT_SIZES gives each its picture size). */
export const RENDER_FORMATS = VIDEO_FORMATS;
export type RenderFormat = (typeof RENDER_FORMATS)[number];

/** Output picture size of each video_format (src/video-model/timeline/frame.ts, with the safe areas). */
export { FORMAT_SIZES } from "../video-model/index.js";

export function isRenderFormat(value: unknown): value is RenderFormat {
  return typeof value === "string" && (RENDER_FORMATS as readonly string[]).includes(value);
}

const compositionSchema = compositionShape.transform((composition): Composition => ({
  ...composition,
  layers: composition.layers.map((item) => ({ ...item, end: item.end ?? composition.duration })),
}));

export type { Composition, LayerOf };

/** Layers whose `src` a render downloads. */
export function mediaLayers(composition: Composition): { index: number; layer: LayerOf<"image"> | LayerOf<"video"> | LayerOf<"audio"> }[] {
  return composition.layers.flatMap((item, index) => (item.type === "image" || item.type === "video" || item.type === "audio" ? [{ index, layer: item }] : []));
}

const PREFIX = "composition";

/**
 * Parses a composition, or throws 422 validation_failed with every issue under `composition.`.
 * Its `{{name}}` merge fields are filled from `options.merge` first; a name without a value is a
 * 422 at `merge.<name>` (a composition that still holds a placeholder never reaches a render).
 */
export function parseComposition(stored: unknown, options: { merge?: Readonly<Record<string, string | number | boolean>> } = {}): Composition {
  const value = stored === null || stored === undefined ? stored : fillMergeFields(stored, options.merge ?? {}, PREFIX);
  if (value === null || value === undefined) {
    throw validationFailed([{ path: PREFIX, message: "The video has no composition.", type: "any.required" }]);
  }
  if (typeof value !== "object" || Array.isArray(value)) {
    throw validationFailed([{ path: PREFIX, message: "The composition must be a JSON object.", type: "object.base" }]);
  }
  const result = compositionSchema.safeParse(value);
  if (result.success) return result.data;
  const issues = toIssues(result.error, compositionSchema, value).map((issue) => ({ ...issue, path: issue.path ? `${PREFIX}.${issue.path}` : PREFIX }));
  throw validationFailed(issues, `Invalid composition: ${issues[0]?.path}: ${issues[0]?.message}`);
}
