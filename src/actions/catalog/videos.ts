// Videos (catalog 4.2): the actions not built yet. videos.create and videos.update live in
// src/videos/actions/.
import { z } from "zod";
import { PROMPT_TEXT, defineFamily, id, jsonObject, label, name, text } from "./define.js";

export const VIDEOS_ACTIONS = defineFamily("videos", [
  {
    name: "videos.generate_layer_audio",
    method: "POST",
    scopes: ["videos:execute"],
    credits: true,
    input: z.strictObject({
      videoId: id(),
      layer_name: name(),
      text: text(PROMPT_TEXT).optional(),
      voice_settings: jsonObject().optional(),
    }),
    price: { credits: 2, per: "call" },
    weight: 5,
    purpose: "generate the audio of one timeline layer and sync its timing",
  },
  {
    name: "videos.launch_flow",
    method: "POST",
    scopes: ["videos:execute"],
    credits: true,
    input: z.strictObject({
      video_id: id(),
      section_id: id().optional(),
      keywords_search: text(1000).optional(),
      video_keyword: text(500).optional(),
      video_flow_type: label().optional(),
      video_type_id: id().optional(),
    }),
    price: { credits: 25, per: "call", note: "flat price of the packaged pipeline (script, voice, visuals); its steps are not billed again" },
    weight: 5,
    purpose: "run the end-to-end generation pipeline for a video",
  },
]);
