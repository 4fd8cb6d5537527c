// videos.generate_layer_audio (catalog 4.2): the voice-over of one timeline layer, and the timing
// synced to it. Until the timeline model names its layers, the named layers of a video are the
// scenes of its faceless timeline (`faceless_scenes`, src/faceless/scene-shape.ts): `layer_name`
// is a scene's `name` ("Scene 2", case-insensitive) or its `scene_id`. `text` replaces the
// layer's words before voicing. The speech provider (espeak-ng offline by default) voices it, the
// recording is measured with ffprobe, and in the call's one write (video.updated) the scene takes
// that length and the composition is rebuilt, every later scene moving with it. A test key gets
// a quote.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { PROMPT_TEXT, id, jsonObject, name, text } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { updateRecordIn } from "../../resources/service.js";
import { sceneTimings, voiceSettingsOf, voiceText, type FacelessScene, loadScenedVideo, lockScenes, scenesData, type FacelessVideo } from "../../faceless/index.js";
import { videos } from "../../video-model/index.js";

function layerOf(video: FacelessVideo, layerName: string): FacelessScene {
  const wanted = layerName.trim().toLowerCase();
  const scene = video.scenes.find((item) => item.scene_id === layerName || item.name.trim().toLowerCase() === wanted);
  if (!scene) {
    throw new ApiError("not_found", `The video '${video.video_id}' has no layer named '${layerName}'.`, { param: "layer_name", details: { layers: video.scenes.map((item) => item.name) } });
  }
  return scene;
}

export default defineAction({
  name: "videos.generate_layer_audio",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({
    videoId: id(),
    layer_name: name(),
    text: text(PROMPT_TEXT).optional(),
    voice_settings: jsonObject().optional(),
  }),
  price: { credits: 2, per: "call" },
  weight: 5,
  purpose: "generate the audio of one timeline layer and sync its timing",
  mode: "model",
  uses: ["speech"],
  output: z.object({
    object: z.literal("layer_audio"),
    video_id: z.string(),
    layer_name: z.string(),
    scene_id: z.string(),
    text: z.string(),
    audio: z.object({ url: z.string(), content_type: z.string(), duration_ms: z.number().int(), model: z.string(), voice: z.string().nullable() }),
    start_ms: z.number().int(),
    end_ms: z.number().int(),
    runtime_ms: z.number().int().describe("The video's new length."),
  }),
  async example(setup) {
    const parsed = await setup.action("faceless.parse_script", { script: "The tide comes in.\n\nThe tide goes out." });
    return { videoId: parsed.video_id, layer_name: "Scene 2", text: "And the tide goes out again." };
  },
  async check({ graphql }, input) {
    layerOf(await loadScenedVideo(graphql.prisma, graphql, input.videoId), input.layer_name);
    if (input.text !== undefined && !input.text.trim()) throw new ApiError("invalid_request", "text is empty: leave it out to voice the layer's own words.", { param: "text" });
  },
  async run({ db, graphql, providers, files, commit }, input) {
    const video = await loadScenedVideo(db, graphql, input.videoId);
    const layer = layerOf(video, input.layer_name);
    const words = input.text?.trim() || layer.text;
    const settings = voiceSettingsOf({ language: video.video_lang ?? undefined }, video.faceless_voice_settings, input.voice_settings);
    const audio = await voiceText(providers, files, `faceless/${graphql.auth.workspaceId}/${video.video_id}/${layer.scene_id}-layer-${Date.now().toString(36)}`, words, settings);
    return commit(async (tx) => {
      const locked = await lockScenes(tx, video.video_id);
      if (!locked?.scenes.some((scene) => scene.scene_id === layer.scene_id)) throw new ApiError("conflict", "The layer was removed while it was voiced; try again.", { param: "layer_name" });
      const data = scenesData(locked.scenes.map((scene) => (scene.scene_id === layer.scene_id ? { ...scene, text: words.slice(0, 5_000), audio } : scene)), locked.format, files);
      await updateRecordIn(tx, graphql, videos, video.video_id, data, { select: { video_id: true } });
      const timings = sceneTimings(data.faceless_scenes);
      const timing = timings.find((item) => item.scene_id === layer.scene_id)!;
      return {
        object: "layer_audio" as const,
        video_id: video.video_id,
        layer_name: layer.name,
        scene_id: layer.scene_id,
        text: words,
        audio: { url: audio.url, content_type: audio.content_type, duration_ms: audio.duration_ms, model: audio.model, voice: audio.voice },
        start_ms: timing.start_ms,
        end_ms: timing.end_ms,
        runtime_ms: timings.at(-1)!.end_ms,
      };
    });
  },
});
