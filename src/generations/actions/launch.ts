// generations.launch (catalog 4.3): the playground pipeline. A prompt (`text`, else
// `generation_instructions`, else `video_keyword`) in; `generation_number` images or videos out
// (`generation_type` image, the default, or video), billed 4 credits each. In one transaction the
// `generations` record is written pending, one `playground_generations` record per output pending
// beside it, and the media operation queued with the credits held (src/generations/media-generation.ts):
// each output is checked (sharp or ffprobe), stored, served by signed links, and fills its
// playground record; generation.completed or generation.failed (credits already spent) follows.
// The quiz and script fields of the catalog row drive no media: they are kept in input_params.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { count, flag, id, integer, json, label, language, modelRef, prompt, text } from "../../actions/catalog/define.js";
import { newId } from "../../ids.js";
import { recordSchema } from "../../resources/record-schema.js";
import { presentRecord } from "../../resources/selection.js";
import { loadOwned } from "../../resources/service.js";
import { validationFailed } from "../../validation/issues.js";
import { videos } from "../../video-model/index.js";
import { generations, playgroundGenerations } from "../resource.js";
import { checkModelRef, queueGeneration } from "../queue-generation.js";

const PRICE_PER_OUTPUT = 4;
const GENERATION_TYPES = ["image", "video"] as const;

/** The prompt of a launch: its text, else its instructions, else its keyword. */
function promptOf(input: { text?: string; generation_instructions?: string; video_keyword?: string }): string | undefined {
  return [input.text, input.generation_instructions, input.video_keyword].map((part) => part?.trim()).find(Boolean);
}

export default defineAction({
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
  price: { credits: PRICE_PER_OUTPUT, per: "item", unit_field: "generation_number", note: "per generated output (image or video)" },
  weight: 5,
  purpose: "playground pipeline: prompt in, image or video out, billed and stored",
  output: z.object({
    object: z.literal("playground_launch"),
    generation: recordSchema(generations),
    playground_generations: z.array(recordSchema(playgroundGenerations)).describe("One gallery record per output, in order; each gets its media_url once its output is stored."),
  }),
  async example() {
    return { text: "A paper boat on a rainy street, cinematic", generation_number: 2 };
  },
  async check({ graphql }, input) {
    if (!promptOf(input)) throw validationFailed([{ path: "text", message: "Send the prompt in text (or generation_instructions, or video_keyword).", type: "any.required" }]);
    const type = input.generation_type ?? "image";
    if (!(GENERATION_TYPES as readonly string[]).includes(type)) {
      throw validationFailed([{ path: "generation_type", message: `Must be one of: ${GENERATION_TYPES.join(", ")}.`, type: "any.only", allowed: [...GENERATION_TYPES] }]);
    }
    // Without a model for what it makes, the call is refused (400) before anything is held.
    graphql.services.providers.get(type as "image" | "video");
    checkModelRef(graphql, type as "image" | "video", input.ai_model_id, "ai_model_id");
  },
  async run(context, input) {
    const { tx, graphql } = context;
    if (input.video_id) await loadOwned(tx, graphql, videos, input.video_id, { select: { video_id: true } }, "read");
    const capability = (input.generation_type ?? "image") as "image" | "video";
    const prompt = promptOf(input)!;
    const playgroundIds = Array.from({ length: input.generation_number }, () => newId("playground_generation"));
    let playground: Record<string, unknown>[] = [];
    const row = await queueGeneration(context, {
      capability,
      action: "generations.launch",
      prompt,
      metadata: { generation_number: input.generation_number, video_id: input.video_id ?? null, playground_generation_ids: playgroundIds },
      operation: { prompts: playgroundIds.map(() => prompt), credits_per_output: PRICE_PER_OUTPUT, model: input.ai_model_id, playground_ids: playgroundIds },
      async beforeQueue(generationId) {
        playground = await tx.playgroundGeneration.createManyAndReturn({
          data: playgroundIds.map((playgroundId) => ({
            playground_generation_id: playgroundId,
            workspace_id: graphql.auth.workspaceId,
            generation_type: capability,
            generation_category: input.ai_generation_type ?? null,
            status: "pending",
            prompt,
            credits_consumed: PRICE_PER_OUTPUT,
            input_params: input,
            result_data: { generation_id: generationId },
          })),
        });
      },
    });
    const position = new Map(playgroundIds.map((playgroundId, index) => [playgroundId, index]));
    playground.sort((a, b) => position.get(a.playground_generation_id as string)! - position.get(b.playground_generation_id as string)!);
    return {
      object: "playground_launch" as const,
      generation: presentRecord(generations, row),
      playground_generations: playground.map((record) => presentRecord(playgroundGenerations, record)),
    };
  },
});
