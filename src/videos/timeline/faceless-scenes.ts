// The `faceless_scenes` field of a video: the scenes of a faceless video (faceless.* owns their
// content). Here only what the timeline and the renderer rely on is checked; the rest is kept.
import { z } from "zod";

export const facelessScene = z
  .looseObject({
    scene_id: z.string().min(1).max(100).optional(),
    text: z.string().max(10_000).optional(),
    duration: z.number().min(0).max(3600).optional().describe("Seconds."),
    image_url: z.string().max(2048).nullable().optional(),
    video_url: z.string().max(2048).nullable().optional(),
    audio_url: z.string().max(2048).nullable().optional(),
  })
  .describe("A scene of a faceless video; unknown keys are kept (owned by faceless.*).");

export const facelessScenesShape = z.array(facelessScene).max(1000);
