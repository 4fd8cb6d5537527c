// characters.smart_variants (catalog 4.3): a batch of images of one character, each a different
// pose, angle or expression, all kept consistent (src/characters/consistency.ts): the character's
// description and look in every prompt, its reference images (after the call's image_url, the
// picture varied) sent with every one. One generation record, the image operation drawing
// num_variants images with 4 credits each held; generation.completed, or generation.failed with
// what was already spent.
// analyze_only answers the plan (the references, the base prompt and each variant's prompt) and
// changes nothing: no record, no file, no model call; billed as one unit (4 credits), as the
// catalog prices it.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, integer, modelRef, url } from "../../actions/catalog/define.js";
import { recordSchema } from "../../resources/record-schema.js";
import { presentRecord } from "../../resources/selection.js";
import { generations, checkModelRef, queueGeneration } from "../../generations/index.js";
import { characterLook, characterPrompt, referenceSources } from "../consistency.js";

const PRICE = 4;

/** What each variant changes, in order; variation_strength says how far (default 0.5). */
const DIRECTIONS = [
  "Front view, neutral expression.",
  "Three-quarter view from the left, a gentle smile.",
  "Profile view from the right, looking into the distance.",
  "Looking back over the shoulder, curious.",
  "Full body, standing with arms crossed.",
  "Close-up portrait, laughing.",
  "Three-quarter view from the right, thoughtful.",
  "Seated, relaxed pose.",
  "Walking towards the camera.",
  "Low angle, confident pose.",
] as const;

export default defineAction({
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
    credits: PRICE,
    per: "item",
    unit_field: "num_variants",
    note: "per variant drawn; with analyze_only no variant is drawn and the analysis is billed as one unit",
  },
  weight: 5,
  purpose: "batch of consistent variants",
  uses: ["image"],
  output: z.object({
    object: z.literal("character_variants"),
    character_id: z.string(),
    analyze_only: z.boolean(),
    references: z.array(z.string()).describe("The images sent with every prompt, in order: the call's image_url, then the character's."),
    variation_strength: z.number(),
    prompts: z.array(z.string()).describe("The prompt of each variant, in order."),
    generation: recordSchema(generations).nullable(),
  }),
  async example(setup) {
    const character = await setup.create("characters", { character_name: "Oskar", character_description: "A tall baker with a flour-dusted apron and a red beard" });
    return { character_id: character.character_id, image_url: (await setup.image()).url, num_variants: 2 };
  },
  async units(_context, input) {
    return input.analyze_only ? 1 : input.num_variants;
  },
  async check({ graphql }, input) {
    checkModelRef(graphql, "image", input.model, "model");
  },
  async run(context, input) {
    const look = await characterLook(context.tx, context.graphql, input.character_id, input.image_url);
    const strength = input.variation_strength ?? 0.5;
    const prompts = DIRECTIONS.slice(0, input.num_variants).map((direction) => characterPrompt(look, direction, strength));
    const references = referenceSources(look, { url: input.image_url, param: "image_url" });
    const plan = {
      object: "character_variants" as const,
      character_id: look.character_id,
      analyze_only: input.analyze_only ?? false,
      references: references.map((source) => source.url!),
      variation_strength: strength,
      prompts,
    };
    if (input.analyze_only) return { ...plan, generation: null };
    const row = await queueGeneration(context, {
      capability: "image",
      action: "characters.smart_variants",
      prompt: prompts[0]!,
      metadata: { character_id: look.character_id, num_variants: input.num_variants, variation_strength: strength, references: plan.references, image_url: input.image_url ?? null },
      operation: { prompts, credits_per_output: PRICE, model: input.model, references },
    });
    return { ...plan, generation: presentRecord(generations, row) };
  },
});
