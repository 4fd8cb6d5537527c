// images.generate (catalog 4.3): runs an image agent. The generation record is written pending and
// its image generation operation queued, with `count` × 4 credits held, in one transaction
// (src/images/agent-generation.ts, shared with image_agents.generate); the operation draws the
// images one by one (src/images/image-generation.ts), keeps what it paid for, and emits
// generation.completed or generation.failed (with the credits already spent).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { count, flag, id, jsonObject, label, prompt, url } from "../../actions/catalog/define.js";
import { recordSchema } from "../../resources/record-schema.js";
import { validationFailed } from "../../validation/issues.js";
import { generations } from "../../generations/index.js";
import { IMAGE_PRICE, oneReference, startAgentImages } from "../agent-generation.js";

export default defineAction({
  name: "images.generate",
  method: "POST",
  scopes: ["generations:execute"],
  credits: true,
  emits: ["generation.completed"],
  input: z.strictObject({
    agent_id: id(),
    variables: jsonObject().optional(),
    custom_prompt: prompt().optional(),
    use_ai_optimization: flag().optional(),
    preprompt_context: prompt().optional(),
    video_id: id().optional(),
    count: count().default(1),
    reference_image_url: url().optional(),
    variation_strength: z.number().min(0).max(1).optional(),
    temperature: z.number().min(0).max(2).optional(),
    settings_overrides: jsonObject().optional(),
    folder_id: id().optional(),
    source_generation_id: id().optional(),
    source_image_url: url().optional(),
    action_type: label().optional(),
  }),
  price: { credits: IMAGE_PRICE, per: "item", unit_field: "count" },
  weight: 5,
  purpose: "run an image agent and bill the workspace",
  uses: ["image"],
  output: recordSchema(generations),
  async example(setup) {
    const agent = await setup.create("agents", { agent_name: "Painter", agent_type: "image", agent_prompt_template: "A watercolour of {{subject}}" });
    return { agent_id: agent.agent_id, variables: { subject: "a lighthouse" }, count: 2 };
  },
  async check({ graphql }, input) {
    // Rewriting the prompt first needs a text model too.
    if (input.use_ai_optimization) graphql.services.providers.get("text");
    oneReference(input);
  },
  async run(context, input) {
    return startAgentImages(context, {
      ...input,
      optimize: input.use_ai_optimization,
      metadata: {
        action: "images.generate",
        action_type: input.action_type ?? null,
        use_ai_optimization: input.use_ai_optimization ?? false,
        variation_strength: input.variation_strength ?? null,
        temperature: input.temperature ?? null,
      },
      notImageAgent: (type) => validationFailed([{ path: "agent_id", message: `This is a ${type} agent; images.generate runs image agents.`, type: "any.invalid" }]),
    });
  },
});
