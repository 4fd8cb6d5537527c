// Subtitles (catalog 4.2).
import { z } from "zod";
import { defineFamily, flag, id, integer, label, url, videoFormat } from "./define.js";

export const SUBTITLES_ACTIONS = defineFamily("subtitles", [
  {
    name: "subtitles.generate",
    method: "POST",
    scopes: ["videos:execute"],
    credits: true,
    input: z.strictObject({
      video_id: id(),
      media_url: url().optional(),
      style_preset: label().optional(),
      words_per_group: integer(1, 20).optional(),
      enable_emphasis: flag().optional(),
      enable_diarization: flag().optional(),
      video_format: videoFormat().optional(),
      restyle_only: flag().optional(),
    }),
    price: { credits: 3, per: "call" },
    weight: 5,
    purpose:
      "transcribe a media URL, mark words to emphasise, write the subtitle track and layer onto the video; used between `videos.create` and `renders.create`",
  },
]);
