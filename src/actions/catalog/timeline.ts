// Timeline (catalog 4.2), still pending: voice-over with alignment, voice sync and would-you-rather
// hydration. The live timeline actions are in src/timeline/actions/.
import { z } from "zod";
import { count, defineFamily, flag, id, json, jsonObject, label, language } from "./define.js";

export const TIMELINE_ACTIONS = defineFamily("timeline", [
  {
    name: "timeline.generate_audio",
    method: "POST",
    scopes: ["videos:execute"],
    credits: true,
    input: z.strictObject({
      video_id: id(),
      scope: label().optional(),
      group_id: id().optional(),
      block_id: id().optional(),
      layer_id: id().optional(),
      force_regenerate: flag().optional(),
      blocks: json().optional(),
      groups: json().optional(),
      voice_settings_map: jsonObject().optional(),
      video_lang: language().optional(),
    }),
    price: {
      credits: 2,
      per: "item",
      note: "per block voiced; the service counts the blocks of the scope, skipping unchanged ones unless force_regenerate",
    },
    weight: 5,
    purpose: "voice-over of a block or group plus speech-recognition alignment",
  },
  {
    name: "timeline.hydrate_tu_preferes",
    method: "POST",
    scopes: ["videos:execute"],
    credits: true,
    input: z.strictObject({
      video_id: id(),
      count: count().default(5),
    }),
    price: { credits: 5, per: "item", unit_field: "count", note: "per question, with its media" },
    weight: 5,
    purpose: "fill a would-you-rather timeline with generated questions and media",
  },
]);
