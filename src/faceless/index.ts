// The public face of faceless: what other domains may import from it (docs/architecture.md, "Layers").
export { sceneTimings } from "./composition.js";
export { drawStill, voiceSettingsOf, voiceText } from "./media.js";
export { statusMoves } from "./operations.js";
export { facelessPipelineOperation } from "./pipeline-operation.js";
export { presentTask, taskShape } from "./present.js";
export type { FacelessScene } from "./scene-shape.js";
export { LINK_SECONDS, jsonColumn, loadFacelessVideo, loadScenedVideo, lockScenes, sceneOf, scenesData } from "./video.js";
export type { FacelessVideo } from "./video.js";
