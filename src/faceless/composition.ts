// The composition of a faceless video, rebuilt from its scenes on every write: scenes follow one
// another, each as long as its voice-over (measured by ffprobe when it was stored), or as its clip
// when it has no voice, or SILENT_SCENE_MS when it has neither. Per scene: its visual (the still,
// or the clip's first frame until the timeline has clip layers) filling the frame, else a plain
// colour; its narration as a caption; its voice-over. Uses only the layer types of
// src/renders/composition.ts (color, image, text, audio).
import { FORMAT_SIZES, isRenderFormat } from "../renders/composition.js";
import type { FacelessScene } from "./scene-shape.js";

/** A scene with neither voice nor clip lasts this long. */
export const SILENT_SCENE_MS = 3_000;
/** The composition format's limits (src/renders/composition.ts). */
const MAX_SECONDS = 600;
const CAPTION_CHARACTERS = 90;
const FILL = ["#14213D", "#1B263B", "#22333B", "#2B2D42"];

export function sceneDurationMs(scene: Pick<FacelessScene, "audio" | "visual">): number {
  return scene.audio?.duration_ms ?? scene.visual?.duration_ms ?? SILENT_SCENE_MS;
}

function captionOf(text: string): string {
  const flat = text.replace(/\s+/gu, " ").trim();
  return flat.length <= CAPTION_CHARACTERS ? flat : `${flat.slice(0, CAPTION_CHARACTERS - 1).trimEnd()}…`;
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

/**
 * The composition of the scenes, for a video of this format. Scenes past the format's 600 s are
 * left out (and the one crossing it cut); `null` when there is no scene.
 */
export function facelessComposition(scenes: readonly FacelessScene[], format: string | null, signed: (key: string) => string): Record<string, unknown> | null {
  if (scenes.length === 0) return null;
  const size = FORMAT_SIZES[isRenderFormat(format) ? format : "landscape"];
  const timings = sceneTimings(scenes);
  const duration = Math.min(timings.at(-1)!.end_ms, MAX_SECONDS * 1000) / 1000;
  const layers: Record<string, unknown>[] = [];
  scenes.forEach((scene, index) => {
    const start = timings[index]!.start_ms / 1000;
    const end = Math.min(timings[index]!.end_ms / 1000, duration);
    if (start >= duration) return;
    if (scene.visual) layers.push({ type: "image", start, end, src: signed(scene.visual.poster.key), x: 0, y: 0, width: size.width, height: size.height });
    else layers.push({ type: "color", start, end, color: FILL[index % FILL.length] });
    layers.push({ type: "text", start, end, text: captionOf(scene.text), font_size: Math.round(size.width / 30), box_color: "#00000099", y: Math.round(size.height * 0.8) });
    if (scene.audio) layers.push({ type: "audio", start, end, src: signed(scene.audio.key) });
  });
  return { duration, fps: 30, background_color: "#000000", layers };
}
