// The `faceless_scenes` field of a video: the scenes of a faceless video, in order. faceless.*
// writes them (faceless.parse_script, then faceless.generate_audio / generate_video fill in each
// scene's voice-over and visual; src/faceless/), and the videos resource checks every write against
// this one shape, so a scene stored through PATCH /videos is one the faceless code can read.
import { z } from "zod";
import { uniqueIds } from "./unique-ids.js";

/** A stored file a scene uses: `key` is the storage key (links are signed from it), `url` a signed link. */
export const sceneMedia = z.strictObject({
  key: z.string().min(1),
  url: z.string().min(1),
  content_type: z.string().min(1),
});

export const sceneAudio = sceneMedia.extend({
  /** Measured by ffprobe on the stored file. */
  duration_ms: z.number().int().positive(),
  /** `<provider>/<model>` of the voice. */
  model: z.string(),
  voice: z.string().nullable(),
});

export const sceneVisual = sceneMedia.extend({
  /** `video`: a generated clip (its `poster` is what the composition shows today); `image`: a still. */
  kind: z.enum(["video", "image"]),
  model: z.string(),
  prompt: z.string(),
  /** A still the composition can draw (the clip's first frame, or the image itself). */
  poster: sceneMedia,
  duration_ms: z.number().int().positive().nullable(),
});

export const SCENE_STATUSES = ["pending", "voiced", "drawn", "ready"] as const;

/** One scene of `video.faceless_scenes`. */
export const facelessScene = z.strictObject({
  scene_id: z.string().min(1).max(64),
  /** 0-based position in the video. */
  index: z.number().int().min(0),
  /** A name the timeline addresses the scene by (videos.generate_layer_audio `layer_name`). */
  name: z.string().min(1).max(200),
  /** The narration: what the voice-over says. */
  text: z.string().min(1).max(5_000),
  /** What the visual shows. */
  visual_prompt: z.string().max(5_000),
  /** pending (nothing yet), voiced (audio only), drawn (visual only), ready (both). */
  status: z.enum(SCENE_STATUSES),
  audio: sceneAudio.nullable(),
  visual: sceneVisual.nullable(),
});
export type FacelessScene = z.output<typeof facelessScene>;

/** The whole `video.faceless_scenes` value: scenes in order, ids unique. */
export const facelessScenes = z
  .array(facelessScene)
  .max(100)
  .superRefine(uniqueIds("scene_id", "Scene"));
