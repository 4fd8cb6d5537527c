// Instructions (catalog 4.7).
import { z } from "zod";
import { defineFamily, language, prompt } from "./define.js";

export const INSTRUCTIONS_ACTIONS = defineFamily("instructions", [
  {
    name: "instructions.generate",
    method: "POST",
    scopes: ["generations:execute"],
    credits: true,
    input: z.strictObject({
      topic: prompt().min(1),
      lang: language().optional(),
    }),
    price: { credits: 1, per: "call" },
    weight: 2,
    purpose: "instruction set driving a generation",
  },
  {
    name: "instructions.generate_with_news",
    method: "POST",
    scopes: ["generations:execute"],
    credits: true,
    input: z.strictObject({
      topic: prompt().min(1),
      lang: language().optional(),
    }),
    price: { credits: 2, per: "call", note: "one news search plus one model call" },
    weight: 2,
    purpose: "same, seeded with fresh news",
  },
]);
