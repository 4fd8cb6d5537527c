// The public face of agents: what other domains may import from it (docs/architecture.md, "Layers").
export { agents } from "./resource.js";
export { agentPrompt } from "./prompt.js";
