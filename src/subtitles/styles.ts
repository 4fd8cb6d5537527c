// Style presets of subtitles (style_preset): each a full subtitles style, sized for the video's
// format (portrait video gets larger words, higher up). An unknown preset is a 422 listing them.
import { subtitleStyle, type SubtitleStyle } from "../video-model/index.js";
import { validationFailed } from "../validation/issues.js";
import { didYouMean } from "../validation/did-you-mean.js";

type Format = "portrait" | "landscape" | "square";

const PRESETS: Record<string, Partial<SubtitleStyle>> = {
  classic: { font_size: 64, position: "bottom", outline_width: 3 },
  bold: { font_size: 84, uppercase: true, outline_width: 6, emphasis_color: "#FFD400FF" },
  karaoke: { font_size: 76, highlight_current_word: true, emphasis_color: "#00E5FFFF", outline_width: 5 },
  minimal: { font_size: 52, outline_width: 2, emphasis_color: "#FFFFFFFF" },
};

export const STYLE_PRESETS = Object.keys(PRESETS);
export const DEFAULT_STYLE_PRESET = "bold";

export function presetStyle(preset: string, format: Format): SubtitleStyle {
  const base = PRESETS[preset];
  if (!base) {
    const suggestion = didYouMean(preset, STYLE_PRESETS);
    throw validationFailed([{ path: "style_preset", message: `Must be one of: ${STYLE_PRESETS.join(", ")}.`, type: "any.only", allowed: STYLE_PRESETS, ...(suggestion && { did_you_mean: suggestion }) }]);
  }
  const scale = format === "portrait" ? 1.15 : format === "square" ? 1 : 0.9;
  const style = subtitleStyle.parse({});
  return {
    ...style,
    ...base,
    font_size: Math.round((base.font_size ?? style.font_size) * scale),
    margin: format === "portrait" ? 420 : format === "square" ? 180 : 120,
  };
}
