// The public face of scenes: what other domains may import from it (docs/architecture.md, "Layers").
export { CAPTION_PRESETS, CLOSING_SECONDS, TITLE_SECONDS, TRANSITION_SECONDS, composeScenes, sceneTimings, spreadWords } from "./compose.js";
export type { CaptionPreset, NarratedScene, SceneOptions, SceneTiming, SceneVisual } from "./compose.js";
export { pickBackgrounds } from "./backgrounds.js";
export type { ShelfBackground } from "./backgrounds.js";
