// Assets (catalog 4.7).
import { z } from "zod";
import { defineFamily, label } from "./define.js";

export const ASSETS_ACTIONS = defineFamily("assets", [
  {
    name: "assets.static_library",
    method: "GET",
    scopes: ["assets:read"],
    credits: false,
    input: z.strictObject({ category: label().optional() }),
    weight: 1,
    purpose: "platform-provided asset library (backgrounds, overlays, sounds)",
  },
]);
