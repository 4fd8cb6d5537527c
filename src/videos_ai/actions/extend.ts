// videos_ai.extend (catalog 4.3): a generated video made longer by one more segment. `task_id` is
// the video generation extended (of the workspace; not a failed one). A new generation record is
// written pending and a video operation queued with 25 credits held: once the source's clip is
// stored, its last frame starts a 5-second image-to-video segment, and the source and the segment
// are joined into one clip (checked with ffprobe, stored, signed links). A source that has not
// finished when the operation runs fails it, fully refunded (generation.failed).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, label, modelRef, name, prompt } from "../../actions/catalog/define.js";
import { recordSchema } from "../../resources/record-schema.js";
import { presentRecord } from "../../resources/selection.js";
import { loadOwned } from "../../resources/service.js";
import { validationFailed } from "../../validation/issues.js";
import { agents } from "../../agents/index.js";
import { generations, checkFolder, checkModelRef, queueGeneration } from "../../generations/index.js";

/** One segment, priced as 5 seconds of generated video. */
const SEGMENT_SECONDS = 5;
const PRICE = 25;

export default defineAction({
  name: "videos_ai.extend",
  method: "POST",
  scopes: ["generations:execute"],
  credits: true,
  input: z.strictObject({
    task_id: id(),
    prompt: prompt().optional(),
    model: modelRef().optional(),
    agent_model: modelRef().optional(),
    agent_name: name().optional(),
    agent_id: id().optional(),
    source: label().optional(),
    folder_id: id().optional(),
  }),
  price: { credits: PRICE, per: "call", note: "one segment, priced as 5 seconds of generated video" },
  weight: 5,
  purpose: "extend a generated video by another segment",
  uses: ["video"],
  output: recordSchema(generations),
  async example(setup) {
    const agent = await setup.create("agents", { agent_name: "Director", agent_type: "video", agent_prompt_template: "A tide rolling in" });
    const first = await setup.action("videos_ai.generate", { agent_id: agent.agent_id, duration: 2 });
    return { task_id: first.generation_id, prompt: "The tide goes out again" };
  },
  async check({ graphql }, input) {
    if (input.model && input.agent_model && input.model !== input.agent_model) {
      throw validationFailed([{ path: "agent_model", message: "Send one model: model and agent_model name different ones.", type: "object.xor" }]);
    }
    checkModelRef(graphql, "video", input.model, "model");
    checkModelRef(graphql, "video", input.agent_model, "agent_model");
  },
  async run(context, input) {
    const { tx, graphql } = context;
    const source = await loadOwned(tx, graphql, generations, input.task_id, { select: { generation_id: true, agent_type: true, status: true, prompt: true, agent_id: true, folder_id: true } }, "read");
    if (source.agent_type !== "video") {
      throw validationFailed([{ path: "task_id", message: `This is a ${String(source.agent_type)} generation; only a video generation can be extended.`, type: "any.invalid" }]);
    }
    if (source.status === "failed") throw validationFailed([{ path: "task_id", message: "This video generation failed: there is no clip to extend.", type: "any.invalid" }]);
    if (input.agent_id) {
      const agent = await loadOwned(tx, graphql, agents, input.agent_id, { select: { agent_type: true } }, "read");
      if (agent.agent_type !== "video") throw validationFailed([{ path: "agent_id", message: `This is a ${String(agent.agent_type)} agent; a video agent extends a video.`, type: "any.invalid" }]);
    }
    await checkFolder(context, input.folder_id);
    const prompt = input.prompt ?? (source.prompt as string | null) ?? "Continue the scene naturally.";
    const row = await queueGeneration(context, {
      capability: "video",
      action: "videos_ai.extend",
      prompt,
      agentId: input.agent_id ?? (source.agent_id as string | null),
      folderId: input.folder_id ?? (source.folder_id as string | null),
      metadata: { source_generation_id: input.task_id, segment_seconds: SEGMENT_SECONDS, agent_name: input.agent_name ?? null, source: input.source ?? null },
      operation: {
        prompts: [prompt],
        credits_per_output: PRICE,
        model: input.model ?? input.agent_model,
        video: { duration_seconds: SEGMENT_SECONDS, extend_generation_id: input.task_id },
      },
    });
    return presentRecord(generations, row);
  },
});
