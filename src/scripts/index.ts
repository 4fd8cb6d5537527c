// The public face of scripts: what other domains may import from it (docs/architecture.md, "Layers").
export { deleteOrphanedFiles } from "./file-orphans.js";
export { inScratch, measuredMs } from "./voice/audio.js";
