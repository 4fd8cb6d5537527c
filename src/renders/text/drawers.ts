// The text layers as drawers of the render graph (src/renders/graph/layer-drawing.ts): `text` and
// `subtitles` are rasterised from their glyph outlines (./text-layer.ts, ./captions.ts) into RGBA
// overlay streams, so the builder moves them with every transition and complex scripts are shaped
// with the fonts the save-time check measured; `question` stays drawtext in place (./draw.ts), in
// the catalog's default family, every pixel value multiplied by the render's scale.
import path from "node:path";
import { DEFAULT_FONT, faceFor, fontCatalog } from "../../media/fonts/catalog.js";
import type { LayerOf } from "../composition.js";
import type { LayerContext, VisualLayerDrawer, VisualLayerDrawing } from "../graph/layer-drawing.js";
import { drawSubtitlesLayer } from "./captions.js";
import { drawQuestionLayer, type TextDrawing } from "./draw.js";
import { drawTextLayer } from "./text-layer.js";

function drawQuestion(layer: LayerOf<"question">, context: LayerContext): VisualLayerDrawing {
  const family = fontCatalog().get(DEFAULT_FONT);
  if (!family) throw new Error("The default font (fonts-dejavu-core) is not installed.");
  const files: TextDrawing["files"] = [];
  const drawing: TextDrawing = { workDir: context.workDir, fontFile: faceFor(family, 400).file, size: context.size, files };
  const filter = drawQuestionLayer({ ...layer, font_size: context.px(layer.font_size, 1) }, context.index, drawing);
  for (const file of files) context.file(path.basename(file.path), file.content);
  return { kind: "in_place", filter, window: { start: layer.start, end: layer.end } };
}

export const TEXT_DRAWERS: {
  text: VisualLayerDrawer<LayerOf<"text">>;
  subtitles: VisualLayerDrawer<LayerOf<"subtitles">>;
  question: VisualLayerDrawer<LayerOf<"question">>;
} = {
  text: drawTextLayer,
  subtitles: drawSubtitlesLayer,
  question: drawQuestion,
};
