// The public face of folders: what other domains may import from it (docs/architecture.md, "Layers").
export { folders } from "./resource.js";
