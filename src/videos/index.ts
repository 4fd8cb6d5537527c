// The public face of videos: what other domains may import from it (docs/architecture.md, "Layers").
export { videos } from "./resource.js";
export { blocksShape } from "./timeline/blocks.js";
export type { Block } from "./timeline/blocks.js";
export { MAX_DURATION_SECONDS, compositionShape, subtitleGroup, subtitleStyle } from "./timeline/composition.js";
export type { Composition, LayerOf, StoredComposition, SubtitleGroup, SubtitleStyle } from "./timeline/composition.js";
export { groupsShape } from "./timeline/groups.js";
export type { Group } from "./timeline/groups.js";
export type { SMART_GROUP_TYPES } from "./timeline/smart-groups.js";
export { videoCaptionsShape } from "./timeline/video-captions.js";
export type { VideoCaptions } from "./timeline/video-captions.js";
export { voiceSettingsMapShape } from "./timeline/voice-settings-map.js";
export { timedWord, wordsSpreadOver } from "./timeline/words.js";
export type { TimedWord } from "./timeline/words.js";
export { facelessScene, facelessScenes } from "./timeline/faceless-scenes.js";
export type { FacelessScene } from "./timeline/faceless-scenes.js";
export { questionItem, rankingItem, dialogueItem, smartGroups } from "./timeline/smart-groups.js";
export type { SmartGroup } from "./timeline/smart-groups.js";
