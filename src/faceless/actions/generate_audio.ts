// faceless.generate_audio (catalog 4.4): the voice-over of one scene (`scene_id`) or of every
// scene of the video, through the speech provider (espeak-ng offline by default). Queued as a
// faceless_audio operation (src/faceless/operations.ts): 2 credits per scene are held now and
// settled to the scenes voiced. Each scene's length becomes its voice-over's, measured by
// ffprobe, and the composition follows. faceless.check_status takes the answer's task_id.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, jsonObject } from "../../actions/catalog/define.js";
import { facelessAudioOperation } from "../operations.js";
import { presentTask, taskShape } from "../present.js";
import { loadScenedVideo, sceneOf } from "../video.js";

export default defineAction({
  name: "faceless.generate_audio",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({
    video_id: id(),
    scene_id: id().optional(),
    voice_settings: jsonObject().optional(),
  }),
  price: { credits: 2, per: "item", note: "per scene voiced: the one scene_id, or every scene of the video without it" },
  weight: 5,
  purpose: "voice-over of one or more scenes",
  uses: ["speech"],
  output: taskShape.extend({ scene_ids: z.array(z.string()).describe("The scenes the task voices, in order.") }),
  async example(setup) {
    const parsed = await setup.action("faceless.parse_script", { script: "The tide comes in." });
    return { video_id: parsed.video_id };
  },
  async units({ graphql }, input) {
    const video = await loadScenedVideo(graphql.prisma, graphql, input.video_id);
    if (input.scene_id) sceneOf(video, input.scene_id);
    return input.scene_id ? 1 : video.scenes.length;
  },
  async run({ tx, graphql, queueOperation }, input) {
    const video = await loadScenedVideo(tx, graphql, input.video_id);
    const sceneIds = input.scene_id ? [sceneOf(video, input.scene_id).scene_id] : video.scenes.map((scene) => scene.scene_id);
    const operation = await queueOperation(facelessAudioOperation, {
      subjectId: video.video_id,
      input: { scene_ids: sceneIds, voice_settings: input.voice_settings ?? null, language: video.video_lang, format: video.video_format },
    });
    return { ...presentTask(operation), scene_ids: sceneIds };
  },
});
