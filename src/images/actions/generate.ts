// images.generate (catalog 4.3): runs an image agent. The generation record is written pending and
// its image generation operation queued, with `count` × 4 credits held, in one transaction; the
// operation draws the images one by one (src/images/image-generation.ts), keeps what it paid for,
// and emits generation.completed or generation.failed (with the credits already spent).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { count, flag, id, jsonObject, label, prompt, url } from "../../actions/catalog/define.js";
import type { Prisma } from "../../generated/prisma/client.js";
import { newId } from "../../ids.js";
import { loadOwned } from "../../resources/service.js";
import { presentRecord } from "../../resources/selection.js";
import { recordSchema } from "../../resources/record-schema.js";
import { validationFailed } from "../../validation/issues.js";
import { agents } from "../../agents/resource.js";
import { folders } from "../../folders/resource.js";
import { generations } from "../../generations/resource.js";
import { videos } from "../../videos/resource.js";
import { agentPrompt } from "../agent-prompt.js";
import { imageGenerationOperation } from "../image-generation.js";

const IMAGE_PRICE = 4;

/** A setting of the agent (or the call's overrides) that is a short text, or undefined. */
function textSetting(settings: Record<string, unknown>, name: string): string | undefined {
  const value = settings[name];
  return typeof value === "string" && value.length > 0 && value.length <= 64 ? value : undefined;
}

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
    if (input.reference_image_url && (input.source_image_url || input.source_generation_id)) {
      throw validationFailed([{ path: "reference_image_url", message: "Send one reference: reference_image_url, source_image_url or source_generation_id.", type: "object.xor" }]);
    }
  },
  async run({ tx, graphql, cost, queueOperation }, input) {
    const workspaceId = graphql.auth.workspaceId;
    const agent = await loadOwned(tx, graphql, agents, input.agent_id, { select: { agent_id: true, agent_type: true, agent_prompt_template: true, agent_settings: true } });
    if (agent.agent_type !== "image") {
      throw validationFailed([{ path: "agent_id", message: `This is a ${String(agent.agent_type)} agent; images.generate runs image agents.`, type: "any.invalid" }]);
    }
    if (input.video_id) await loadOwned(tx, graphql, videos, input.video_id, { select: { video_id: true } }, "read");
    if (input.folder_id) await loadOwned(tx, graphql, folders, input.folder_id, { select: { folder_id: true } }, "read");
    let referenceKey: string | undefined;
    if (input.source_generation_id) {
      const source = await loadOwned(tx, graphql, generations, input.source_generation_id, { select: { generation_metadata: true, status: true } }, "read");
      referenceKey = ((source.generation_metadata as { files?: { key: string }[] } | null)?.files ?? [])[0]?.key;
      if (!referenceKey) throw validationFailed([{ path: "source_generation_id", message: "That generation has no stored image to start from.", type: "any.invalid" }]);
    }
    const prompt = agentPrompt({
      template: agent.agent_prompt_template as string | null,
      variables: input.variables ?? {},
      customPrompt: input.custom_prompt,
      context: input.preprompt_context,
    });
    const settings = { ...((agent.agent_settings as Record<string, unknown> | null) ?? {}), ...(input.settings_overrides ?? {}) };
    const generationId = newId("generation");
    const model = graphql.services.providers.model("image")!;
    const row = await tx.generation.create({
      data: {
        generation_id: generationId,
        workspace_id: workspaceId,
        agent_type: "image",
        agent_model: model.ref,
        agent_id: input.agent_id,
        folder_id: input.folder_id ?? null,
        status: "pending",
        prompt,
        credits_consumed: cost,
        variables: input.variables ?? undefined,
        generation_metadata: {
          action: "images.generate",
          count: input.count,
          video_id: input.video_id ?? null,
          action_type: input.action_type ?? null,
          use_ai_optimization: input.use_ai_optimization ?? false,
          variation_strength: input.variation_strength ?? null,
          temperature: input.temperature ?? null,
          reference_image_url: input.reference_image_url ?? input.source_image_url ?? null,
          source_generation_id: input.source_generation_id ?? null,
          settings,
        } as Prisma.InputJsonValue,
      },
    });
    await queueOperation(imageGenerationOperation, {
      subjectId: generationId,
      input: {
        prompt,
        count: input.count,
        credits_per_image: IMAGE_PRICE,
        size: textSetting(settings, "size"),
        quality: textSetting(settings, "quality"),
        optimize: input.use_ai_optimization ?? false,
        reference_url: input.reference_image_url ?? input.source_image_url,
        reference_key: referenceKey,
      },
    });
    return presentRecord(generations, row);
  },
});
