// The public face of image_agents: what other domains may import from it (docs/architecture.md, "Layers").
export { IMAGE_AGENT_TYPE } from "./image-agents.js";
