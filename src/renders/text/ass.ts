// The ASS subtitle file of a `subtitles` layer, burned in by ffmpeg's `ass` filter (libass) with
// the DejaVu fonts. Pure. The script's resolution is the output size, so sizes and margins are
// pixels. A group is one event (its emphasised words in the emphasis colour); with
// `highlight_current_word` a group is one event per word, the word being spoken coloured.
// No user text is read as ASS markup: braces and backslashes are replaced (see `assText`).
import type { LayerOf, SubtitleGroup, SubtitleStyle } from "../../videos/index.js";

/** The font family libass finds in the fonts directory (DejaVu Sans, as text layers). */
export const SUBTITLE_FONT = "DejaVu Sans";

/** `#RRGGBBAA` → ASS `&HAABBGGRR` (ASS alpha is transparency: 00 is opaque). */
export function assColor(hex: string): string {
  const alpha = 255 - Number.parseInt(hex.slice(7, 9), 16);
  const part = (value: number | string) => (typeof value === "number" ? value.toString(16) : value).padStart(2, "0").toUpperCase();
  return `&H${part(alpha)}${hex.slice(5, 7)}${hex.slice(3, 5)}${hex.slice(1, 3)}`.toUpperCase();
}

/** Seconds → `H:MM:SS.cc`. */
export function assTime(seconds: number): string {
  const centis = Math.max(0, Math.round(seconds * 100));
  const h = Math.floor(centis / 360_000);
  const m = Math.floor((centis % 360_000) / 6000);
  const s = Math.floor((centis % 6000) / 100);
  const c = centis % 100;
  return `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}.${String(c).padStart(2, "0")}`;
}

/** A word as plain text for ASS: no override block, no escape, no line break can be opened by it. */
export function assText(text: string, uppercase: boolean): string {
  const plain = text.replace(/[\r\n\t]+/g, " ").replace(/\\/g, "/").replace(/\{/g, "(").replace(/\}/g, ")");
  return uppercase ? plain.toUpperCase() : plain;
}

const ALIGNMENT: Record<SubtitleStyle["position"], number> = { bottom: 2, center: 5, top: 8 };

function line(group: SubtitleGroup, style: SubtitleStyle, highlighted: number | undefined): string {
  return group.words
    .map((word, index) => {
      const text = assText(word.word, style.uppercase);
      const coloured = index === highlighted || (highlighted === undefined && word.emphasis);
      return coloured ? `{\\c&H${assColor(style.emphasis_color).slice(4)}&}${text}{\\r}` : text;
    })
    .join(" ");
}

/** Events of one group, cut to the layer's time: [start, end, text]. */
function events(group: SubtitleGroup, style: SubtitleStyle, from: number, to: number): [number, number, string][] {
  const clip = (start: number, end: number, text: string): [number, number, string][] => {
    const a = Math.max(start, from);
    const b = Math.min(end, to);
    return b > a ? [[a, b, text]] : [];
  };
  if (!style.highlight_current_word) return clip(group.start, group.end, line(group, style, undefined));
  return group.words.flatMap((word, index) => {
    const start = index === 0 ? group.start : word.start;
    const end = index === group.words.length - 1 ? group.end : group.words[index + 1]!.start;
    return end > start ? clip(start, end, line(group, style, index)) : [];
  });
}

export function buildAss(layer: LayerOf<"subtitles">, size: { width: number; height: number }): string {
  const { style } = layer;
  const header = [
    "[Script Info]",
    "ScriptType: v4.00+",
    `PlayResX: ${size.width}`,
    `PlayResY: ${size.height}`,
    "WrapStyle: 0",
    "ScaledBorderAndShadow: yes",
    "",
    "[V4+ Styles]",
    "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding",
    `Style: Default,${SUBTITLE_FONT},${style.font_size},${assColor(style.color)},${assColor(style.emphasis_color)},${assColor(style.outline_color)},&H80000000,-1,0,0,0,100,100,0,0,1,${style.outline_width},0,${ALIGNMENT[style.position]},60,60,${style.position === "center" ? 0 : style.margin},1`,
    "",
    "[Events]",
    "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
  ];
  const dialogue = (layer.groups ?? [])
    .flatMap((group) => events(group, style, layer.start, layer.end))
    .map(([start, end, text]) => `Dialogue: 0,${assTime(start)},${assTime(end)},Default,,0,0,0,,${text}`);
  return `${[...header, ...dialogue].join("\n")}\n`;
}
