// The public face of images: what other domains may import from it (docs/architecture.md, "Layers").
export { IMAGE_PRICE, oneReference, startAgentImages } from "./agent-generation.js";
