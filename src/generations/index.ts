// The public face of generations: what other domains may import from it (docs/architecture.md, "Layers").
export { billedGeneration, completedGeneration } from "./billed-generation.js";
export { imagePromptOutput, promptFromImage, promptFromTheme } from "./image-prompt.js";
export type { ImageSource } from "./media-generation.js";
export { checkFolder, checkModelRef, queueGeneration } from "./queue-generation.js";
export { generations } from "./resource.js";
export { storeMedia } from "./stored-media.js";
export type { StoredMedia } from "./stored-media.js";
export { generationEvent, generationStatus, storedFile } from "./generation-record.js";
