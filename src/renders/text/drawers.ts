// The text layers as drawers of the render graph (src/renders/graph/layer-drawing.ts): today's
// drawtext and libass filters (./draw.ts), drawn in place on the running video, with every pixel
// value multiplied by the render's scale. The text helper's drawing replaces this file.
import path from "node:path";
import { FONT_PATH } from "../../media/binaries.js";
import type { LayerOf } from "../composition.js";
import type { LayerContext, VisualLayerDrawer, VisualLayerDrawing } from "../graph/layer-drawing.js";
import { drawQuestionLayer, drawSubtitlesLayer, drawTextLayer, type TextDrawing } from "./draw.js";

function inPlace(context: LayerContext, window: { start: number; end: number }, draw: (drawing: TextDrawing) => string): VisualLayerDrawing {
  const files: TextDrawing["files"] = [];
  const filter = draw({ workDir: context.workDir, fontFile: FONT_PATH, size: context.size, files });
  for (const file of files) context.file(path.basename(file.path), file.content);
  return { kind: "in_place", filter, window };
}

const scaled = (value: number | "center", context: LayerContext) => (value === "center" ? value : Math.round(value * context.scale));

export const TEXT_DRAWERS: {
  text: VisualLayerDrawer<LayerOf<"text">>;
  subtitles: VisualLayerDrawer<LayerOf<"subtitles">>;
  question: VisualLayerDrawer<LayerOf<"question">>;
} = {
  text: (layer, context) =>
    inPlace(context, layer, (drawing) =>
      drawTextLayer({ ...layer, x: scaled(layer.x, context), y: scaled(layer.y, context), font_size: context.px(layer.font_size, 1), box_padding: context.px(layer.box_padding) }, context.index, drawing)),
  subtitles: (layer, context) =>
    inPlace(context, layer, (drawing) =>
      drawSubtitlesLayer({ ...layer, style: { ...layer.style, font_size: context.px(layer.style.font_size, 1), margin: context.px(layer.style.margin), outline_width: layer.style.outline_width * context.scale } }, context.index, drawing)),
  question: (layer, context) => inPlace(context, layer, (drawing) => drawQuestionLayer({ ...layer, font_size: context.px(layer.font_size, 1) }, context.index, drawing)),
};
