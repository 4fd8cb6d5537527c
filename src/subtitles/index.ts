// The public face of subtitles: what other domains may import from it (docs/architecture.md, "Layers").
export { storedComposition } from "./apply.js";
export { DEFAULT_WORDS_PER_GROUP, groupWords } from "../video-model/index.js";
export { fetchMedia } from "./media.js";
export { presetStyle } from "./styles.js";
export { lockVideo, readVideo, storedCaptions, transcribe, videoMedia } from "./transcribe.js";
