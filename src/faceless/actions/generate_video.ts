// faceless.generate_video (catalog 4.4): the visual of one scene, a short clip from the video
// provider (`prompt`, or the scene's visual_prompt). Queued as a faceless_visual operation
// (src/faceless/operations.ts) holding the 20 credits; the clip is stored with its first frame,
// which the video's composition shows for the scene (the composition format has no clip layer
// yet). faceless.check_status takes the answer's task_id.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, prompt } from "../../actions/catalog/define.js";
import { facelessVisualOperation } from "../operations.js";
import { presentTask, taskShape } from "../present.js";
import { loadScenedVideo, sceneOf } from "../video.js";

export default defineAction({
  name: "faceless.generate_video",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({
    video_id: id(),
    scene_id: id(),
    prompt: prompt().optional(),
  }),
  price: { credits: 20, per: "call", note: "the visual of one scene, a short generated clip" },
  weight: 5,
  purpose: "visual of a faceless scene",
  uses: ["video"],
  output: taskShape.extend({ scene_id: z.string(), prompt: z.string() }),
  async example(setup) {
    const parsed = await setup.action("faceless.parse_script", { script: "The tide comes in." });
    const scenes = parsed.scenes as { scene_id: string }[];
    return { video_id: parsed.video_id, scene_id: scenes[0]!.scene_id };
  },
  async check({ graphql }, input) {
    sceneOf(await loadScenedVideo(graphql.prisma, graphql, input.video_id), input.scene_id);
  },
  async run({ tx, graphql, queueOperation }, input) {
    const video = await loadScenedVideo(tx, graphql, input.video_id);
    const scene = sceneOf(video, input.scene_id);
    const visualPrompt = input.prompt?.trim() || scene.visual_prompt || scene.text;
    const operation = await queueOperation(facelessVisualOperation, { subjectId: video.video_id, input: { scene_id: scene.scene_id, prompt: visualPrompt, format: video.video_format } });
    return { ...presentTask(operation), scene_id: scene.scene_id, prompt: visualPrompt };
  },
});
