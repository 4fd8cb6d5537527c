// Value sets of composition version 2 that are not text: how media fits its box, the shapes, the
// roles of sound layers (music is ducked under voice) and the loudness defaults. The names are
// public API (docs/renders.md).
import { z } from "zod";
import { seconds } from "./values.js";

export const FIT_MODES = ["cover", "contain", "fill", "none"] as const;
export const SHAPES = ["rect", "rounded_rect", "circle", "progress_bar"] as const;
export const SOUND_ROLES = ["voice", "music", "effect"] as const;

/** Version 2's loudness target: integrated LUFS and true-peak ceiling (the streaming platforms' level). */
export const LOUDNESS_DEFAULTS = { integrated: -14, true_peak: -1 } as const;

/** Fields every sound layer (audio, tone) takes; a video layer takes role and duck for its sound. */
export const soundFields = {
  fade_in: seconds.default(0).describe("Seconds over which the sound fades in from silence."),
  fade_out: seconds.default(0).describe("Seconds over which the sound fades out to silence before its end."),
  role: z.enum(SOUND_ROLES).optional().describe("voice, music or effect. Music is ducked while a voice plays; absent: effect (neither ducks nor is ducked)."),
  duck: z.boolean().default(true).describe("Music only: lowered under voice by sidechain compression; false keeps it level."),
};
