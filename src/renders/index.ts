// The public face of renders: what other domains may import from it (docs/architecture.md, "Layers").
export { FORMAT_SIZES, isRenderFormat, parseComposition } from "./composition.js";
export { presentRender } from "./present.js";
export { renderOperation } from "./render-operation.js";
export { renders } from "./resource.js";
export { renderFormat } from "./videos-to-render.js";
