// Slideshows (catalog 4.4).
import { z } from "zod";
import { defineFamily, id, label } from "./define.js";

export const SLIDESHOWS_ACTIONS = defineFamily("slideshows", [
  {
    name: "slideshows.generate",
    method: "POST",
    scopes: ["videos:execute"],
    credits: true,
    input: z.strictObject({ slideshowId: id() }),
    price: { credits: 4, per: "item", note: "per pending slide drawn; the service counts them" },
    weight: 5,
    purpose: "generate visuals of every pending slide",
  },
  {
    name: "slideshows.export",
    method: "POST",
    scopes: ["videos:execute"],
    credits: true,
    input: z.strictObject({
      slideshowId: id(),
      format: label().optional(),
    }),
    price: { credits: 5, per: "call" },
    weight: 5,
    purpose: "export the finished slideshow",
  },
]);
