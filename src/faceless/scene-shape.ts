// Faceless videos (catalog 4.4): what lives here. A faceless video is a `videos` record whose
// `faceless_scenes` column holds its scenes (this shape), written by faceless.parse_script and
// filled in by faceless.generate_audio (the voice-over of each scene, measured with ffprobe) and
// faceless.generate_video (the visual of a scene). Every write rebuilds the video's `composition`
// (src/faceless/composition.ts), so renders.create turns a faceless video into an MP4 at any
// stage. Long work runs as operations (operations.ts, pipeline-operation.ts);
// faceless.check_status reads them. The shape itself is the timeline model's
// (src/video-model/timeline/faceless-scenes.ts), which the videos resource checks on every write.
import type { FacelessScene } from "../video-model/index.js";

export { facelessScene, facelessScenes, type FacelessScene } from "../video-model/index.js";

/** The status a scene has from what it holds. */
export function sceneStatus(scene: Pick<FacelessScene, "audio" | "visual">): FacelessScene["status"] {
  if (scene.audio && scene.visual) return "ready";
  if (scene.audio) return "voiced";
  if (scene.visual) return "drawn";
  return "pending";
}
