// videos.launch_flow (catalog 4.2): runs the end-to-end generation pipeline of a video — script,
// voice-over, visuals — as a faceless_pipeline operation (src/faceless/pipeline-operation.ts)
// holding the flat 25 credits; its steps are not billed again. `video_flow_type`: `faceless`, the
// one pipeline there is (the default). `video_keyword` is the subject when the video has no
// scenes yet (else the video's own video_keyword or name); `keywords_search` steers the story;
// `section_id` limits voice and visuals to one scene; `video_type_id` is stored on the video.
// faceless.check_status takes the answer's task_id; renders.create on the video gives the MP4.
// A test key's call is simulated: validated and quoted, nothing queued.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, label, text } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { validationFailed } from "../../validation/issues.js";
import { facelessPipelineOperation, presentTask, taskShape, loadFacelessVideo, sceneOf } from "../../faceless/index.js";

export const FLOW_TYPES = ["faceless"] as const;

export default defineAction({
  name: "videos.launch_flow",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({
    video_id: id(),
    section_id: id().optional(),
    keywords_search: text(1000).optional(),
    video_keyword: text(500).optional(),
    video_flow_type: label().optional(),
    video_type_id: id().optional(),
  }),
  price: { credits: 25, per: "call", note: "flat price of the packaged pipeline (script, voice, visuals); its steps are not billed again" },
  weight: 5,
  purpose: "run the end-to-end generation pipeline for a video",
  uses: ["text", "speech", "image"],
  output: taskShape.extend({ video_flow_type: z.string(), section_id: z.string().nullable() }),
  async example(setup) {
    const video = await setup.create("videos", { video_name: "Tides", video_keyword: "why the sea has tides" });
    return { video_id: video.video_id };
  },
  async check({ graphql }, input) {
    if (input.video_flow_type !== undefined && !(FLOW_TYPES as readonly string[]).includes(input.video_flow_type)) {
      throw validationFailed([{ path: "video_flow_type", message: `Must be one of: ${FLOW_TYPES.join(", ")}.`, type: "any.only", allowed: [...FLOW_TYPES] }]);
    }
    const video = await loadFacelessVideo(graphql.prisma, graphql, input.video_id);
    if (input.section_id) sceneOf(video, input.section_id, "section_id");
  },
  async run({ tx, graphql, queueOperation }, input) {
    const video = await loadFacelessVideo(tx, graphql, input.video_id);
    if (input.section_id) sceneOf(video, input.section_id, "section_id");
    const row = await tx.video.findUnique({ where: { video_id: video.video_id }, select: { video_keyword: true, video_name: true, faceless_story_prompt: true } });
    if (video.scenes.length === 0 && !input.video_keyword?.trim() && !row?.video_keyword && !row?.faceless_story_prompt && !row?.video_name) {
      throw new ApiError("invalid_request", "The video has no scenes and no subject: give video_keyword.", { param: "video_keyword" });
    }
    const running = await tx.operation.findFirst({ where: { kind: facelessPipelineOperation.kind, subject_id: video.video_id, status: { in: ["queued", "running"] } }, select: { operation_id: true } });
    if (running) throw new ApiError("conflict", `The video's pipeline is already running (task '${running.operation_id}').`, { param: "video_id" });
    if (input.video_type_id) await tx.video.update({ where: { video_id: video.video_id }, data: { video_type_id: input.video_type_id } });
    const flowType = input.video_flow_type ?? "faceless";
    const operation = await queueOperation(facelessPipelineOperation, {
      subjectId: video.video_id,
      input: { section_id: input.section_id ?? null, keywords_search: input.keywords_search?.trim() || null, video_keyword: input.video_keyword?.trim() || null, video_flow_type: flowType },
    });
    return { ...presentTask(operation), video_flow_type: flowType, section_id: input.section_id ?? null };
  },
});
