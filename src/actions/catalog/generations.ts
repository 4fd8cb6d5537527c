// Playground generation pipeline (catalog 4.3).
import { z } from "zod";
import { count, defineFamily, flag, integer, json, label, language, modelRef, prompt, text, id } from "./define.js";

export const GENERATIONS_ACTIONS = defineFamily("generations", [
  {
    name: "generations.launch",
    method: "POST",
    scopes: ["generations:execute"],
    credits: true,
    input: z.strictObject({
      video_keyword: text(500).optional(),
      video_id: id().optional(),
      ai_generation_type: label().optional(),
      ai_questions_number: integer(1, 50).optional(),
      video_lang: language().optional(),
      quiz_level_number: integer(1, 10).optional(),
      quiz_questions_number: integer(1, 50).optional(),
      generation_instructions: prompt().optional(),
      generation_number: count().default(1),
      generation_original_lang: language().optional(),
      generation_translated_lang: language().optional(),
      hooks_number: integer(1, 10).optional(),
      all_questions: json().optional(),
      ai_model_id: modelRef().optional(),
      search_web: flag().optional(),
      generation_type: label().optional(),
      number_speakers: integer(1, 10).optional(),
      add_intro_hook: flag().optional(),
      text: prompt().optional(),
    }),
    price: { credits: 4, per: "item", unit_field: "generation_number", note: "per generated output (image or video)" },
    weight: 5,
    purpose: "playground pipeline: prompt in, image or video out, billed and stored",
  },
]);
