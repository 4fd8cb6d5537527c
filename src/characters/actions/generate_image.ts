// characters.generate_image (catalog 4.3): one image of a character that looks like it does every
// time. Its description and look go into the prompt and its reference images (plus the call's
// reference_image_url) go to the image model with it (src/characters/consistency.ts). The
// generation record is written pending and the image operation queued with 4 credits held; the
// image is checked with sharp, stored and served by signed links; generation.completed, or
// generation.failed with the credits already spent.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, jsonObject, modelRef, prompt, url } from "../../actions/catalog/define.js";
import { recordSchema } from "../../resources/record-schema.js";
import { presentRecord } from "../../resources/selection.js";
import { loadOwned } from "../../resources/service.js";
import { validationFailed } from "../../validation/issues.js";
import { agents } from "../../agents/index.js";
import { agentPrompt } from "../../agents/index.js";
import { generations, checkModelRef, queueGeneration } from "../../generations/index.js";
import { characterLook, characterPrompt, referenceSources } from "../consistency.js";
import { imageSettings } from "../image-settings.js";

const PRICE = 4;

export default defineAction({
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
  price: { credits: PRICE, per: "call" },
  weight: 5,
  purpose: "consistent image of a character",
  uses: ["image"],
  output: recordSchema(generations),
  async example(setup) {
    const character = await setup.create("characters", { character_name: "Mira", character_description: "A young lighthouse keeper with a yellow raincoat", reference_image_url: (await setup.image()).url });
    return { character_id: character.character_id, prompt: "Mira waving from the lighthouse balcony" };
  },
  async check({ graphql }, input) {
    checkModelRef(graphql, "image", input.model, "model");
    imageSettings(input.settings);
  },
  async run(context, input) {
    const { tx, graphql } = context;
    const look = await characterLook(tx, graphql, input.character_id, input.reference_image_url);
    let scene = input.prompt;
    if (input.agent_id) {
      const agent = await loadOwned(tx, graphql, agents, input.agent_id, { select: { agent_type: true, agent_prompt_template: true } }, "read");
      if (agent.agent_type !== "image") throw validationFailed([{ path: "agent_id", message: `This is a ${String(agent.agent_type)} agent; a character image needs an image agent.`, type: "any.invalid" }]);
      // The agent's template may name {{character}} and {{prompt}}.
      if (agent.agent_prompt_template) scene = agentPrompt({ template: agent.agent_prompt_template as string | null, variables: { character: look.name, prompt: input.prompt ?? "" }, customPrompt: undefined });
    }
    const prompt = characterPrompt(look, scene, input.variation_strength);
    const references = referenceSources(look, { url: input.reference_image_url, param: "reference_image_url" });
    const row = await queueGeneration(context, {
      capability: "image",
      action: "characters.generate_image",
      prompt,
      agentId: input.agent_id,
      metadata: { character_id: look.character_id, references: references.map((source) => source.url), variation_strength: input.variation_strength ?? null, settings: input.settings ?? null },
      operation: { prompts: [prompt], credits_per_output: PRICE, model: input.model, references, image: imageSettings(input.settings) },
    });
    return presentRecord(generations, row);
  },
});
