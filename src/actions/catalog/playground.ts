// Playground (catalog 4.7).
import { z } from "zod";
import { defineFamily, text, url } from "./define.js";

export const PLAYGROUND_ACTIONS = defineFamily("playground", [
  {
    name: "playground.random_prompt",
    method: "POST",
    scopes: ["generations:execute"],
    credits: true,
    input: z.strictObject({
      theme: text(1000).optional(),
      style: text(1000).optional(),
    }),
    price: { credits: 1, per: "call" },
    weight: 2,
    purpose: "image prompt from a theme",
  },
  {
    name: "playground.image_to_prompt",
    method: "POST",
    scopes: ["generations:execute"],
    credits: true,
    input: z.strictObject({ image_url: url() }),
    price: { credits: 1, per: "call" },
    weight: 2,
    purpose: "prompt that would produce an image",
  },
]);
