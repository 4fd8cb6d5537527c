// Characters (catalog 4.3).
import { z } from "zod";
import { defineFamily, flag, id, integer, jsonObject, modelRef, prompt, url } from "./define.js";

export const CHARACTERS_ACTIONS = defineFamily("characters", [
  {
    name: "characters.generate_image",
    method: "POST",
    scopes: ["characters:execute"],
    credits: true,
    input: z.strictObject({
      character_id: id(),
      model: modelRef().optional(),
      prompt: prompt().optional(),
      agent_id: id().optional(),
      reference_image_url: url().optional(),
      variation_strength: z.number().min(0).max(1).optional(),
      settings: jsonObject().optional(),
    }),
    price: { credits: 4, per: "call" },
    weight: 5,
    purpose: "consistent image of a character",
  },
  {
    name: "characters.smart_variants",
    method: "POST",
    scopes: ["characters:execute"],
    credits: true,
    input: z.strictObject({
      character_id: id(),
      image_url: url().optional(),
      model: modelRef().optional(),
      num_variants: integer(1, 10).default(4),
      variation_strength: z.number().min(0).max(1).optional(),
      analyze_only: flag().optional(),
    }),
    price: {
      credits: 4,
      per: "item",
      unit_field: "num_variants",
      note: "per variant drawn; with analyze_only no variant is drawn and the analysis is billed as one unit",
    },
    weight: 5,
    purpose: "batch of consistent variants",
  },
]);
