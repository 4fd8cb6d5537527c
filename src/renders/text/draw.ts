// The `question` layer drawn onto the running video stream by drawtext reading files (expansion
// off, so no character of the text is ever interpreted): one filter chain (no labels), the files
// it reads added to `drawing.files`. Text and captions are drawn from glyph outlines instead
// (./text-layer.ts, ./captions.ts).
import path from "node:path";
import type { LayerOf } from "../composition.js";
import { enable, escapeFilterValue, ffmpegColor } from "../filter-values.js";

export interface TextDrawing {
  /** Absolute directory for the files the filters read. */
  workDir: string;
  fontFile: string;
  size: { width: number; height: number };
  /** Files the command reads, to be written before it runs. */
  files: { path: string; content: string }[];
}

function drawText(drawing: TextDrawing, name: string, text: string, options: string[]): string {
  const textFile = path.join(drawing.workDir, `${name}.txt`);
  drawing.files.push({ path: textFile, content: text });
  return `drawtext=${[`fontfile=${escapeFilterValue(drawing.fontFile)}`, `textfile=${escapeFilterValue(textFile)}`, "expansion=none", ...options].join(":")}`;
}

export function drawQuestionLayer(layer: LayerOf<"question">, index: number, drawing: TextDrawing): string {
  const reveal = Math.min(Math.max(layer.reveal_at ?? layer.end - 1, layer.start), layer.end);
  const gap = Math.round(layer.font_size * 1.8);
  const top = Math.round(drawing.size.height * 0.2);
  const common = (color: string, box: string) => [`fontsize=${layer.font_size}`, `fontcolor=${ffmpegColor(color)}`, "box=1", `boxcolor=${ffmpegColor(box)}`, `boxborderw=${Math.round(layer.font_size / 3)}`, "x=(w-text_w)/2"];
  const steps = [drawText(drawing, `question-${index}`, layer.question, [...common(layer.color, layer.box_color), `y=${top}`, enable(layer)])];
  layer.answers.forEach((answer, answerIndex) => {
    const y = top + gap * (answerIndex + 2);
    const text = `${String.fromCharCode(65 + answerIndex)}. ${answer}`;
    steps.push(drawText(drawing, `question-${index}-answer-${answerIndex}`, text, [...common(layer.color, layer.box_color), `y=${y}`, enable(layer)]));
    if (answerIndex === layer.correct && reveal < layer.end) {
      steps.push(drawText(drawing, `question-${index}-correct`, text, [...common("#FFFFFFFF", layer.correct_color), `y=${y}`, enable({ start: reveal, end: layer.end })]));
    }
  });
  return steps.join(",");
}
