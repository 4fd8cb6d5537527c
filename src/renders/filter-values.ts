// How values are written inside an ffmpeg filtergraph: escaped option values, numbers, colours and
// a layer's time window. Shared by the graph builder (./render-command.ts) and the text drawing
// (./text/).

/** Escapes a value for an option inside a filtergraph: once for the option parser, once for the graph parser. */
export function escapeFilterValue(value: string): string {
  const optionLevel = value.replace(/[\\':]/g, (char) => `\\${char}`);
  return optionLevel.replace(/[\\'[\],;]/g, (char) => `\\${char}`);
}

/** A number as ffmpeg reads it: plain decimal notation, millisecond precision. */
export function num(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

/** `#RRGGBBAA` → ffmpeg's `0xRRGGBB@alpha`. */
export function ffmpegColor(hex: string): string {
  const alpha = Number.parseInt(hex.slice(7, 9), 16) / 255;
  return `0x${hex.slice(1, 7)}@${num(alpha)}`;
}

export function enable(layer: { start: number; end: number }): string {
  return `enable='between(t,${num(layer.start)},${num(layer.end)})'`;
}

