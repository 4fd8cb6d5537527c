// The one way narrated scenes become a composition (docs/scripts.md, "Hand-over"; docs/faceless.md):
// scripts.to_video, faceless videos and slideshow exports all build theirs here. Scenes follow one
// another, each as long as its narration. Per scene: its visual filling the frame (a still with a
// slow Ken Burns motion, a clip looped and muted or played once and held, or a colour), running
// into the next scene by the transition so the two meet as a cross transition (`dissolve` by
// default); its voice as a `voice` audio layer. Over them: captions as one `subtitles` layer from
// the scenes' word timings (preset `karaoke` by default, inside the format's safe area: the
// renderer keeps captions there and shrinks a long one), or for a scene with a fixed caption (a
// slide's text) that text for the whole scene; a title card over the first seconds, an optional
// closing card after the narration, and a music bed ducked under the voices and faded out at the
// end. Version 2, so the mix is brought to -14 LUFS.
//
// Pure: the same scenes and options give the same composition, layer for layer, so a scene that
// did not change draws exactly as before (a re-handover changes only what changed).
import { drawableText, FORMAT_SIZES, subtitleStyle, type TimedWord, type TransitionType } from "../video-model/index.js";

export const CAPTION_PRESETS = ["karaoke", "plain", "word_pop", "boxed_word", "none"] as const;
export type CaptionPreset = (typeof CAPTION_PRESETS)[number];

/** The composition format's longest duration (src/video-model). */
const MAX_SECONDS = 600;
/** The composition format's most layers (src/video-model). */
const MAX_LAYERS = 100;
/** How long scenes overlap in their transition, at most (and at most half the shorter scene). */
export const TRANSITION_SECONDS = 0.6;
/** The title card's time over the first scene, at most. */
export const TITLE_SECONDS = 3;
/** The closing card's time after the narration. */
export const CLOSING_SECONDS = 2.5;
const WORDS_PER_CAPTION = 4;
const FILLS = ["#14213D", "#1B263B", "#22333B", "#2B2D42"];
const MOTIONS = ["zoom_in", "zoom_out", "pan_right", "pan_left"] as const;

/** A clip loops (muted) by default; `loop: false` plays it once and holds its last frame. */
export type SceneVisual = { kind: "image"; src: string } | { kind: "video"; src: string; loop?: boolean } | { kind: "color"; color?: string };

export interface NarratedScene {
  /** Seconds the scene lasts (its narration). */
  duration: number;
  /** The narration's audio (`take:…`, a signed link), or null for a silent scene. */
  voice: string | null;
  /** Spoken words, in seconds from the scene's start. */
  words: readonly TimedWord[];
  /** A caption shown whole for the scene (a slide's text) instead of its words as spoken. */
  caption?: string | null;
  visual: SceneVisual;
}

export interface SceneOptions {
  format: "landscape" | "portrait" | "square";
  captions: CaptionPreset;
  transition: TransitionType | "none";
  title: string | null;
  closing: string | null;
  music: { src: string; volume: number } | null;
}

export interface SceneTiming {
  start: number;
  end: number;
}

const round = (value: number) => Math.round(value * 1000) / 1000;
/** The subtitles layer's limit on a word (src/video-model/timeline/text-layers.ts). */
const MAX_WORD_CHARACTERS = 200;

/**
 * The words of a text spread evenly over `seconds` from 0: the timing of narration nothing timed
 * (a faceless scene's text, a slide's caption).
 */
export function spreadWords(text: string, seconds: number): TimedWord[] {
  const words = text.split(/\s+/u).filter(Boolean).map((word) => word.slice(0, MAX_WORD_CHARACTERS));
  if (words.length === 0 || seconds <= 0) return [];
  const step = seconds / words.length;
  return words.map((word, index) => ({ word, start: round(index * step), end: index + 1 === words.length ? round(seconds) : round((index + 1) * step) }));
}

/** Start and end (seconds) of each scene, back to back. */
export function sceneTimings(scenes: readonly Pick<NarratedScene, "duration">[]): SceneTiming[] {
  let at = 0;
  return scenes.map((scene) => {
    const start = at;
    at = round(at + scene.duration);
    return { start, end: at };
  });
}

/**
 * Captions: the spoken words grouped as they are said, a `subtitles` layer per scene lying in that
 * scene's time alone, so that a change of one scene leaves the others' layers as they were (a split
 * render reuses the segments before it: docs/scripts.md, "Re-handover and split renders"); when a
 * layer per scene would pass the composition's 100 layers (`room`), one layer for all of them. The
 * fixed captions, each for its whole scene, in one layer of groups.
 */
function captionLayers(scenes: readonly NarratedScene[], timings: readonly SceneTiming[], options: SceneOptions, end: number, room: number): Record<string, unknown>[] {
  if (options.captions === "none") return [];
  const placed = (index: number, words: readonly TimedWord[]) => {
    const { start, end: sceneEnd } = timings[index]!;
    return words.flatMap((word) => {
      const from = round(Math.min(start + word.start, sceneEnd));
      const to = round(Math.min(start + word.end, sceneEnd));
      return word.word.trim() && to >= from ? [{ word: word.word.trim(), start: from, end: to }] : [];
    });
  };
  const spokenByScene = scenes.map((scene, index) => (scene.caption ? [] : placed(index, scene.words)));
  const spoken = spokenByScene.flat();
  const fixed = scenes.flatMap((scene, index) => {
    const { start, end: sceneEnd } = timings[index]!;
    const words = scene.caption ? placed(index, spreadWords(scene.caption, sceneEnd - start)) : [];
    return words.length > 0 && sceneEnd > start ? [{ start, end: sceneEnd, words }] : [];
  });
  const all = [...spoken, ...fixed.flatMap((group) => group.words)];
  if (all.length === 0) return [];
  const size = FORMAT_SIZES[options.format];
  const base = subtitleStyle.parse({ preset: options.captions, highlight_current_word: options.captions === "karaoke" });
  // In a font that draws the narration's script; characters no font draws are left out.
  const { font } = drawableText(all.map((word) => word.word).join(" "), base.font, base.font_weight);
  const drawable = (words: readonly TimedWord[]) => words.flatMap((word) => {
    const text = drawableText(word.word, font, base.font_weight).text.trim();
    return text ? [{ ...word, word: text }] : [];
  });
  const style = { ...base, font, font_size: Math.round(size.width >= size.height ? 64 : 72), max_lines: 2 };
  const layers: Record<string, unknown>[] = [];
  const spans = spokenByScene.flatMap((words, index) => {
    const { start, end: sceneEnd } = timings[index]!;
    const shown = drawable(words);
    return shown.length > 0 && sceneEnd > start ? [{ start, end: sceneEnd, words: shown }] : [];
  });
  if (spans.length + (fixed.length > 0 ? 1 : 0) <= room) {
    for (const span of spans) layers.push({ type: "subtitles", ...span, words_per_group: WORDS_PER_CAPTION, style });
  } else if (spans.length > 0) {
    layers.push({ type: "subtitles", start: 0, end, words: spans.flatMap((span) => span.words), words_per_group: WORDS_PER_CAPTION, style });
  }
  const groups = fixed.map((group) => ({ ...group, words: drawable(group.words) })).filter((group) => group.words.length > 0);
  if (groups.length > 0) layers.push({ type: "subtitles", start: 0, end, groups, style });
  return layers;
}

function visualLayer(visual: SceneVisual, index: number, frame: { start: number; end: number; in?: number; out?: number }, transition: TransitionType | "none"): Record<string, unknown> {
  const { start, end } = frame;
  const moves = {
    ...(transition !== "none" && frame.in && { transition_in: { type: transition, duration: frame.in } }),
    ...(transition !== "none" && frame.out && { transition_out: { type: transition, duration: frame.out } }),
  };
  if (visual.kind === "color") return { type: "color", start, end, color: visual.color ?? FILLS[index % FILLS.length], ...moves };
  if (visual.kind === "image") return { type: "image", start, end, src: visual.src, fit: "cover", motion: { type: MOTIONS[index % MOTIONS.length], zoom: 1.15 }, ...moves };
  return { type: "video", start, end, src: visual.src, fit: "cover", loop: visual.loop ?? true, ...moves };
}

/**
 * The composition of the scenes and where each one lies; null when there is no scene. Scenes past
 * the format's 600 s are left out (and the one crossing it cut).
 */
export function composeScenes(scenes: readonly NarratedScene[], options: SceneOptions): { composition: Record<string, unknown>; timings: SceneTiming[] } | null {
  if (scenes.length === 0) return null;
  const all = sceneTimings(scenes);
  const narration = Math.min(all.at(-1)!.end, MAX_SECONDS);
  const closing = options.closing && narration + CLOSING_SECONDS <= MAX_SECONDS ? CLOSING_SECONDS : 0;
  const duration = round(Math.max(narration + closing, 0.1));
  const shown = scenes.flatMap((scene, index) => (all[index]!.start < narration ? [{ scene, index, start: all[index]!.start, end: Math.min(all[index]!.end, narration) }] : []));
  const timings = shown.map(({ start, end }) => ({ start, end }));
  const overlap = (position: number) => {
    const next = shown[position + 1];
    if (!next || options.transition === "none") return 0;
    const here = shown[position]!;
    return round(Math.min(TRANSITION_SECONDS, (here.end - here.start) / 2, (next.end - next.start) / 2));
  };
  const layers: Record<string, unknown>[] = [];
  shown.forEach(({ scene, index, start, end }, position) => {
    const out = overlap(position);
    const last = position === shown.length - 1;
    // The last picture holds under the closing card.
    const visualEnd = last ? duration : round(end + out);
    layers.push(visualLayer(scene.visual, index, { start, end: visualEnd, in: position > 0 ? overlap(position - 1) : 0, out }, options.transition));
  });
  shown.forEach(({ scene, start, end }) => {
    if (scene.voice && end > start) layers.push({ type: "audio", start, end, src: scene.voice, role: "voice" });
  });
  if (options.music) {
    const fadeOut = round(Math.min(3, duration / 3));
    layers.push({ type: "audio", start: 0, end: duration, src: options.music.src, volume: options.music.volume, role: "music", fade_in: round(Math.min(1, duration / 3)), fade_out: fadeOut });
  }
  const cards = (options.title ? 1 : 0) + (closing && options.closing ? 1 : 0);
  layers.push(...captionLayers(shown.map((item) => item.scene), timings, options, narration, MAX_LAYERS - layers.length - cards));
  const first = timings[0]!;
  if (options.title) {
    const end = round(Math.min(TITLE_SECONDS, first.end - first.start, narration));
    if (end > 0.3) {
      const shownTitle = drawableText(options.title, "display", 700);
      layers.push({
        type: "text", start: 0, end, text: shownTitle.text, font: shownTitle.font, font_weight: 700, font_size: 96, max_lines: 3, auto_fit: true,
        y: "center", color: "#FFFFFF", box_color: "#00000088", box_padding: 32, animation: { type: "fade", duration: 0.4 },
        transition_out: { type: "fade", duration: round(Math.min(0.4, end / 3)) },
      });
    }
  }
  if (closing && options.closing) {
    const shownClosing = drawableText(options.closing, "display", 700);
    layers.push({
      type: "text", start: narration, end: duration, text: shownClosing.text, font: shownClosing.font, font_weight: 700, font_size: 80, max_lines: 3, auto_fit: true,
      y: "center", color: "#FFFFFF", box_color: "#00000088", box_padding: 32, animation: { type: "fade", duration: 0.4 },
    });
  }
  return { composition: { version: 2, duration, fps: 30, background_color: "#101820", layers }, timings };
}
