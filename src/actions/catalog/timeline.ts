// Timeline (catalog 4.2), still pending: would-you-rather hydration. The live timeline actions are in src/timeline/actions/.
import { z } from "zod";
import { count, defineFamily, id } from "./define.js";

export const TIMELINE_ACTIONS = defineFamily("timeline", [
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
