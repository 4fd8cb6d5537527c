// How a visual layer comes in and goes out (`transition_in`, `transition_out`): the names are the
// public API (docs/renders.md). Two overlapping layers, the first with an out and the second with
// an in transition, make a cross transition. Every visual layer (image, video, color, shape, text)
// takes these fields; the graph builder (src/renders/) draws them.
import { z } from "zod";
import { seconds } from "./values.js";

export const TRANSITION_TYPES = [
  "fade", "dissolve",
  "wipe_left", "wipe_right", "wipe_up", "wipe_down",
  "slide_left", "slide_right", "slide_up", "slide_down",
  "zoom_in", "zoom_out",
  "circle_open", "circle_close",
] as const;
export type TransitionType = (typeof TRANSITION_TYPES)[number];

export const transition = z.strictObject({
  type: z.enum(TRANSITION_TYPES),
  duration: seconds.default(0.5).describe("Seconds the transition takes, inside the layer's time."),
});
export type Transition = z.output<typeof transition>;

/** The two fields every visual layer takes. */
export const transitionFields = {
  transition_in: transition.optional().describe("How the layer comes in, over its first `duration` seconds."),
  transition_out: transition.optional().describe("How the layer goes out, over its last `duration` seconds."),
};
