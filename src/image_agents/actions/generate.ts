// image_agents.generate (catalog 4.7): starts an image agent's generation job, as images.generate
// does (src/images/agent-generation.ts: the pending `generations` row and its image generation
// operation, `count` × 4 credits held, settled to the images drawn); poll image_agents.status.
// Beyond images.generate: `aspect_ratio` picks the drawn size, `quality` the model's quality,
// `additional_reference_image_urls` are sent along with the reference (each read through the URL
// guard when the job runs), `source` is kept on the record. A test key runs the checks and
// answers the pending record it would have written (livemode false); nothing is kept or queued.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { count, id, jsonObject, label, prompt, url } from "../../actions/catalog/define.js";
import { notFound } from "../../errors/api-error.js";
import { recordSchema } from "../../resources/record-schema.js";
import { validationFailed } from "../../validation/issues.js";
import { generations } from "../../generations/index.js";
import { IMAGE_PRICE, oneReference, startAgentImages } from "../../images/index.js";

/** The sizes image models draw, by aspect ratio (the nearest shape a model takes). */
export const ASPECT_SIZES: Readonly<Record<string, string>> = {
  "1:1": "1024x1024",
  "2:3": "1024x1536",
  "3:4": "1024x1536",
  "9:16": "1024x1536",
  "3:2": "1536x1024",
  "4:3": "1536x1024",
  "16:9": "1536x1024",
};

export default defineAction({
  name: "image_agents.generate",
  method: "POST",
  scopes: ["generations:execute"],
  credits: true,
  input: z.strictObject({
    agent_id: id(),
    variables: jsonObject().optional(),
    custom_prompt: prompt().optional(),
    video_id: id().optional(),
    count: count().default(1),
    quality: label().optional(),
    aspect_ratio: label().optional(),
    source: label().optional(),
    reference_image_url: url().optional(),
    additional_reference_image_urls: z.array(url()).max(10).optional(),
    variation_strength: z.number().min(0).max(1).optional(),
    folder_id: id().optional(),
    source_generation_id: id().optional(),
    source_image_url: url().optional(),
    action_type: label().optional(),
  }),
  price: { credits: IMAGE_PRICE, per: "item", unit_field: "count" },
  weight: 5,
  purpose: "start an image generation job; poll `image_agents.status`",
  uses: ["image"],
  output: recordSchema(generations),
  async example(setup) {
    const agent = await setup.action("image_agents.create", { agent_name: "Poster painter", agent_prompt_template: "A poster of {{ subject }}" });
    return { agent_id: agent.agent_id, variables: { subject: "a lighthouse" }, aspect_ratio: "2:3", quality: "low" };
  },
  async check(_context, input) {
    oneReference(input);
    if (input.aspect_ratio !== undefined && !(input.aspect_ratio in ASPECT_SIZES)) {
      const allowed = Object.keys(ASPECT_SIZES);
      throw validationFailed([{ path: "aspect_ratio", message: `Must be one of: ${allowed.join(", ")}.`, type: "any.only", allowed }]);
    }
  },
  async run(context, input) {
    return startAgentImages(context, {
      ...input,
      settings_overrides: {
        ...(input.aspect_ratio && { size: ASPECT_SIZES[input.aspect_ratio] }),
        ...(input.quality && { quality: input.quality }),
      },
      metadata: {
        action: "image_agents.generate",
        action_type: input.action_type ?? null,
        source: input.source ?? null,
        aspect_ratio: input.aspect_ratio ?? null,
        variation_strength: input.variation_strength ?? null,
      },
      notImageAgent: () => notFound("image agent", input.agent_id, "agent_id"),
    });
  },
});
