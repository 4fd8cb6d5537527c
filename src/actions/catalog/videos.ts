// Videos (catalog 4.2). `<video fields>` is the marker the framework resolves to the videos
// resource's own create / update schema (contract 2.3), so nothing is imported from src/videos.
import { z } from "zod";
import { PROMPT_TEXT, VIDEO_FIELDS, defineFamily, id, jsonObject, label, name, text } from "./define.js";

export const VIDEOS_ACTIONS = defineFamily("videos", [
  {
    name: "videos.create",
    method: "POST",
    scopes: ["videos:write"],
    credits: false,
    input: VIDEO_FIELDS,
    weight: 1,
    purpose: "create a video; applies template, defaults and workspace stamping",
  },
  {
    name: "videos.update",
    method: "POST",
    scopes: ["videos:write"],
    credits: false,
    input: VIDEO_FIELDS,
    weight: 1,
    purpose: "validated update of a video, same validation as the editor",
  },
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
