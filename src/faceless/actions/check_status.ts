// faceless.check_status (catalog 4.4): where a faceless video's generation stands. `task_id` (an
// answer of faceless.generate_audio / generate_video / videos.launch_flow) reads that operation and
// its video; `video_id` reads the video and its latest tasks. A read: free, and with a test key it
// answers the real records (it writes nothing, so there is nothing to simulate).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, requireOneOf } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { sceneTimings } from "../composition.js";
import { FACELESS_KINDS } from "../operations.js";
import { presentTask, taskShape } from "../present.js";
import { loadFacelessVideo } from "../video.js";

const RECENT_TASKS = 10;

export default defineAction({
  name: "faceless.check_status",
  method: "POST",
  scopes: ["videos:read"],
  credits: false,
  input: requireOneOf(
    z.strictObject({
      task_id: id().optional(),
      video_id: id().optional(),
    }),
    ["task_id", "video_id"],
  ),
  weight: 1,
  purpose: "status of a running scene generation",
  output: z.object({
    object: z.literal("faceless_status"),
    video_id: z.string(),
    faceless_status: z.string().nullable().describe("draft, voicing, drawing, generating, ready or failed."),
    task: taskShape.nullable().describe("The task asked for by task_id."),
    tasks: z.array(taskShape).describe("The video's latest tasks, newest first."),
    scenes: z.array(z.object({ scene_id: z.string(), name: z.string(), status: z.string(), start_ms: z.number().int(), end_ms: z.number().int(), audio_url: z.string().nullable(), visual_url: z.string().nullable() })),
    runtime_ms: z.number().int(),
  }),
  async example(setup) {
    const parsed = await setup.action("faceless.parse_script", { script: "The tide comes in." });
    return { video_id: parsed.video_id };
  },
  async run({ tx, graphql }, input) {
    const kinds = [...FACELESS_KINDS];
    let videoId = input.video_id;
    let task = null;
    if (input.task_id) {
      task = await tx.operation.findFirst({ where: { operation_id: input.task_id, kind: { in: kinds } } });
      if (!task) throw new ApiError("not_found", `No faceless task with id '${input.task_id}' in this workspace.`, { param: "task_id" });
      if (task.workspace_id !== graphql.auth.workspaceId) throw new ApiError("workspace_mismatch", `The task '${input.task_id}' belongs to another workspace.`, { param: "task_id" });
      if (videoId && videoId !== task.subject_id) throw new ApiError("invalid_request", `The task '${task.operation_id}' belongs to the video '${task.subject_id}'.`, { param: "video_id" });
      videoId = task.subject_id;
    }
    const video = await loadFacelessVideo(tx, graphql, videoId!, "read");
    const tasks = await tx.operation.findMany({ where: { workspace_id: graphql.auth.workspaceId, subject_id: video.video_id, kind: { in: kinds } }, orderBy: { created_at: "desc" }, take: RECENT_TASKS });
    const files = graphql.services.files;
    const timings = sceneTimings(video.scenes);
    return {
      object: "faceless_status" as const,
      video_id: video.video_id,
      faceless_status: video.faceless_status,
      task: task ? presentTask(task) : null,
      tasks: tasks.map(presentTask),
      scenes: video.scenes.map((scene, index) => ({
        scene_id: scene.scene_id,
        name: scene.name,
        status: scene.status,
        start_ms: timings[index]!.start_ms,
        end_ms: timings[index]!.end_ms,
        audio_url: scene.audio ? files.signedUrl(scene.audio.key) : null,
        visual_url: scene.visual ? files.signedUrl(scene.visual.key) : null,
      })),
      runtime_ms: timings.at(-1)?.end_ms ?? 0,
    };
  },
});
