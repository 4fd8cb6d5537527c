// The value types every layer of a composition uses: colours, pixel positions and sizes, seconds,
// a layer's timing. Shared by ./composition.ts and ./text-layers.ts.
import { z } from "zod";
import { holdsMergeField } from "./merge-fields.js";

export const MAX_DURATION_SECONDS = 600;

/** Colour names accepted besides `#RRGGBB` and `#RRGGBBAA`. */
const NAMED_COLORS: Readonly<Record<string, string>> = {
  black: "#000000", white: "#FFFFFF", red: "#FF0000", green: "#008000", blue: "#0000FF", yellow: "#FFFF00",
  cyan: "#00FFFF", magenta: "#FF00FF", gray: "#808080", grey: "#808080", orange: "#FFA500", purple: "#800080",
  pink: "#FFC0CB", brown: "#A52A2A", transparent: "#00000000",
};

/**
 * A colour, normalised to `#RRGGBBAA`. A value holding a `{{name}}` merge field is kept as it is:
 * it is checked as a colour once renders.create has filled it (./merge-fields.ts).
 */
export const color = z
  .string()
  .refine((value) => /^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(value) || Object.hasOwn(NAMED_COLORS, value.toLowerCase()) || holdsMergeField(value), {
    message: `Expected #RRGGBB, #RRGGBBAA or one of: ${Object.keys(NAMED_COLORS).join(", ")}.`,
    params: { type: "string.color" },
  })
  .transform((value) => {
    if (holdsMergeField(value)) return value;
    const hex = (NAMED_COLORS[value.toLowerCase()] ?? value).toUpperCase();
    return hex.length === 7 ? `${hex}FF` : hex;
  });

export const position = z.number().int().min(-10_000).max(10_000);
export const size = z.number().int().min(1).max(8192);
export const seconds = z.number().min(0).max(MAX_DURATION_SECONDS);
export const timing = {
  start: z.number().min(0).default(0).describe("Seconds from the start of the video."),
  end: z.number().positive().optional().describe("Seconds from the start of the video; the video's end when absent."),
};
