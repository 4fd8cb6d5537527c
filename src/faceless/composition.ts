// The composition of a faceless video, rebuilt from its scenes on every write: scenes follow one
// another, each as long as its voice-over (measured by ffprobe when it was stored), or as its clip
// when it has no voice, or SILENT_SCENE_MS when it has neither. Per scene: its visual filling the
// frame — a generated clip as a `video` layer (held on its last frame if the voice runs longer), a
// still as an `image` layer with a slow Ken Burns zoom — else a plain colour; its voice-over. Each
// visual runs CROSSFADE_SECONDS into the next scene, whose visual fades in over it (a cross-fade;
// a colour cuts). The narration is one `subtitles` layer on top (captions), its words spread evenly
// over each scene. Layer types of src/video-model/timeline/composition.ts (docs/renders.md).
import { FORMAT_SIZES, isRenderFormat } from "../renders/index.js";
import { presetStyle } from "../subtitles/index.js";
import { drawableText } from "../video-model/index.js";
import { narrationGroups } from "./narration.js";
import type { FacelessScene } from "./scene-shape.js";

/** A scene with neither voice nor clip lasts this long. */
export const SILENT_SCENE_MS = 3_000;
/** The composition format's limits (src/renders/composition.ts). */
const MAX_SECONDS = 600;
/** How long one scene's visual dissolves into the next one's. */
export const CROSSFADE_SECONDS = 0.5;
const FILL = ["#14213D", "#1B263B", "#22333B", "#2B2D42"];

export function sceneDurationMs(scene: Pick<FacelessScene, "audio" | "visual">): number {
  return scene.audio?.duration_ms ?? scene.visual?.duration_ms ?? SILENT_SCENE_MS;
}

export interface SceneTiming {
  scene_id: string;
  start_ms: number;
  end_ms: number;
}

/** Start and end of every scene, in order. */
export function sceneTimings(scenes: readonly FacelessScene[]): SceneTiming[] {
  let at = 0;
  return scenes.map((scene) => {
    const start = at;
    at += sceneDurationMs(scene);
    return { scene_id: scene.scene_id, start_ms: start, end_ms: at };
  });
}

export interface Crossfade {
  /** Seconds: the item's own end, or CROSSFADE_SECONDS later when the next picture dissolves over it. */
  end: number;
  fade_in: number;
}

/**
 * Cross-fades of back-to-back items (scenes, slides), each from `start` to `end` seconds: a picture
 * runs into the next picture by CROSSFADE_SECONDS (at most half the next one's time), and that one
 * fades in over it — a dissolve. A non-picture (a colour) cuts, and is cut to.
 */
export function crossfades(items: readonly { start: number; end: number; picture: boolean }[], duration: number): Crossfade[] {
  const fade = (item: { start: number; end: number }) => Math.min(CROSSFADE_SECONDS, (item.end - item.start) / 2);
  return items.map((item, position) => {
    const next = items[position + 1];
    const previous = items[position - 1];
    const overlap = next && item.picture && next.picture ? fade(next) : 0;
    return { end: Math.min(item.end + overlap, duration), fade_in: previous?.picture && item.picture ? fade(item) : 0 };
  });
}

/** The scene's visual as a layer filling the frame from start to end, fading in over `fadeIn` s. */
function visualLayer(scene: FacelessScene, index: number, timing: { start: number } & Crossfade, size: { width: number; height: number }, signed: (key: string) => string): Record<string, unknown> {
  const { start, end } = timing;
  const frame = { start, end, x: 0, y: 0, width: size.width, height: size.height, fade_in: timing.fade_in };
  if (scene.visual?.kind === "video") return { type: "video", ...frame, src: signed(scene.visual.key) };
  if (scene.visual) return { type: "image", ...frame, src: signed(scene.visual.key), motion: { type: index % 2 === 0 ? "zoom_in" : "zoom_out", zoom: 1.1 } };
  return { type: "color", start, end, color: FILL[index % FILL.length] };
}

/**
 * The composition of the scenes, for a video of this format. Scenes past the format's 600 s are
 * left out (and the one crossing it cut); `null` when there is no scene.
 */
export function facelessComposition(scenes: readonly FacelessScene[], format: string | null, signed: (key: string) => string): Record<string, unknown> | null {
  if (scenes.length === 0) return null;
  const renderFormat = isRenderFormat(format) ? format : "landscape";
  const size = FORMAT_SIZES[renderFormat];
  const timings = sceneTimings(scenes).map((timing) => ({ start: timing.start_ms / 1000, end: timing.end_ms / 1000 }));
  const duration = Math.min(timings.at(-1)!.end, MAX_SECONDS);
  const shown = scenes.flatMap((scene, index) => (timings[index]!.start < duration ? [{ scene, index, start: timings[index]!.start, end: Math.min(timings[index]!.end, duration) }] : []));
  const layers: Record<string, unknown>[] = [];
  const timed = crossfades(shown.map(({ scene, start, end }) => ({ start, end, picture: Boolean(scene.visual) })), duration);
  shown.forEach(({ scene, index, start, end }, position) => {
    layers.push(visualLayer(scene, index, { start, ...timed[position]! }, size, signed));
    if (scene.audio) layers.push({ type: "audio", start, end, src: signed(scene.audio.key) });
  });
  const groups = narrationGroups(shown.map(({ scene, start, end }) => ({ text: scene.text, start, end })));
  if (groups.length > 0) {
    // In a font that draws the narration's script; characters no font draws are left out.
    const style = presetStyle("classic", renderFormat);
    const { font } = drawableText(groups.flatMap((group) => group.words.map((word) => word.word)).join(" "), style.font, style.font_weight);
    const drawn = groups
      .map((group) => ({ ...group, words: group.words.flatMap((word) => {
        const text = drawableText(word.word, font, style.font_weight).text.trim();
        return text ? [{ ...word, word: text }] : [];
      }) }))
      .filter((group) => group.words.length > 0);
    if (drawn.length > 0) layers.push({ type: "subtitles", start: 0, end: duration, groups: drawn, style: { ...style, font } });
  }
  return { duration, fps: 30, background_color: "#000000", layers };
}
