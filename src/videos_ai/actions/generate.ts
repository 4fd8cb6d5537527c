// videos_ai.generate (catalog 4.3): runs a video agent. The generation record is written pending and
// its video operation queued (src/generations/media-generation.ts), with 5 credits per second of
// each clip held, in one transaction; the operation asks the video model for the clips one by one
// (fal queue protocol, the request id checkpointed so a retaken attempt polls instead of paying
// twice), checks each with ffprobe, stores it, keeps what it paid for, and emits
// generation.completed or generation.failed (with the credits already spent).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { count, flag, id, integer, jsonObject, label, prompt, url } from "../../actions/catalog/define.js";
import { recordSchema } from "../../resources/record-schema.js";
import { presentRecord } from "../../resources/selection.js";
import { loadOwned } from "../../resources/service.js";
import { validationFailed } from "../../validation/issues.js";
import { agents } from "../../agents/index.js";
import { videos } from "../../video-model/index.js";
import { generations, checkFolder, queueGeneration } from "../../generations/index.js";
import { agentPrompt } from "../../agents/index.js";
import { ASPECT_RATIOS } from "../aspect-ratios.js";

const PRICE_PER_SECOND = 5;

export default defineAction({
  name: "videos_ai.generate",
  method: "POST",
  scopes: ["generations:execute"],
  credits: true,
  input: z.strictObject({
    agent_id: id(),
    custom_prompt: prompt().optional(),
    variables: jsonObject().optional(),
    video_id: id().optional(),
    count: count().default(1),
    use_ai_optimization: flag().optional(),
    preprompt_context: prompt().optional(),
    image_url: url().optional(),
    end_image_url: url().optional(),
    duration: integer(1, 60).default(5),
    aspectRatio: label().optional(),
    nativeAudio: flag().optional(),
    tier: label().optional(),
    source: label().optional(),
    folder_id: id().optional(),
  }),
  price: { credits: PRICE_PER_SECOND, per: "second", unit_field: "duration", times_field: "count", note: "per second of each clip" },
  weight: 5,
  purpose: "run a video-generation agent and bill the workspace",
  uses: ["video"],
  output: recordSchema(generations),
  async example(setup) {
    const agent = await setup.create("agents", { agent_name: "Director", agent_type: "video", agent_prompt_template: "A slow drone shot over {{place}}" });
    return { agent_id: agent.agent_id, variables: { place: "a fjord at dawn" }, duration: 2, aspectRatio: "16:9" };
  },
  async check({ graphql }, input) {
    if (input.use_ai_optimization) graphql.services.providers.get("text");
    if (input.aspectRatio !== undefined && !ASPECT_RATIOS.includes(input.aspectRatio)) {
      throw validationFailed([{ path: "aspectRatio", message: `Must be one of: ${ASPECT_RATIOS.join(", ")}.`, type: "any.only", allowed: [...ASPECT_RATIOS] }]);
    }
    if (input.end_image_url && !input.image_url) {
      throw validationFailed([{ path: "end_image_url", message: "A last frame needs a first frame: send image_url too.", type: "any.required" }]);
    }
  },
  async run(context, input) {
    const { tx, graphql } = context;
    const agent = await loadOwned(tx, graphql, agents, input.agent_id, { select: { agent_id: true, agent_type: true, agent_prompt_template: true } }, "read");
    if (agent.agent_type !== "video") {
      throw validationFailed([{ path: "agent_id", message: `This is a ${String(agent.agent_type)} agent; videos_ai.generate runs video agents.`, type: "any.invalid" }]);
    }
    if (input.video_id) await loadOwned(tx, graphql, videos, input.video_id, { select: { video_id: true } }, "read");
    await checkFolder(context, input.folder_id);
    const prompt = agentPrompt({ template: agent.agent_prompt_template as string | null, variables: input.variables ?? {}, customPrompt: input.custom_prompt, context: input.preprompt_context });
    const row = await queueGeneration(context, {
      capability: "video",
      action: "videos_ai.generate",
      prompt,
      agentId: input.agent_id,
      folderId: input.folder_id,
      variables: input.variables,
      metadata: {
        count: input.count,
        duration: input.duration,
        aspect_ratio: input.aspectRatio ?? null,
        native_audio: input.nativeAudio ?? null,
        tier: input.tier ?? null,
        source: input.source ?? null,
        video_id: input.video_id ?? null,
        use_ai_optimization: input.use_ai_optimization ?? false,
        image_url: input.image_url ?? null,
        end_image_url: input.end_image_url ?? null,
      },
      operation: {
        prompts: Array.from({ length: input.count }, () => prompt),
        credits_per_output: PRICE_PER_SECOND * input.duration,
        optimize: input.use_ai_optimization ?? false,
        video: {
          duration_seconds: input.duration,
          aspect_ratio: input.aspectRatio,
          with_audio: input.nativeAudio,
          first_frame: input.image_url ? { url: input.image_url, param: "image_url" } : undefined,
          last_frame: input.end_image_url ? { url: input.end_image_url, param: "end_image_url" } : undefined,
        },
      },
    });
    return presentRecord(generations, row);
  },
});
