// The `video_captions` field of a video: the subtitle track subtitles.generate writes (and
// timeline.analyze_subtitles builds): the transcript's words, their groups and the style. The
// subtitles layer of the composition is drawn from it.
import { z } from "zod";
import { mediaUrl, subtitleGroup, subtitleStyle } from "./composition.js";
import { timedWord } from "./words.js";

export const videoCaptionsShape = z
  .strictObject({
    language: z.string().max(35).nullable().optional(),
    source_url: mediaUrl.nullable().optional().describe("The media that was transcribed."),
    text: z.string().max(200_000).optional().describe("The whole transcript."),
    words: z.array(timedWord).max(50_000).default([]).describe("Every word with its time, seconds from the start of the video."),
    words_per_group: z.number().int().min(1).max(20).optional(),
    style_preset: z.string().max(64).optional(),
    style: subtitleStyle.optional(),
    groups: z.array(subtitleGroup).max(5000).default([]).describe("Words shown together, as the subtitles layer draws them."),
  })
  .describe("The subtitle track of a video.");

export type VideoCaptions = z.output<typeof videoCaptionsShape>;
