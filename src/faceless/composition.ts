// The composition of a faceless video, rebuilt from its scenes on every write by the one scene
// builder (src/scenes/compose.ts, docs/faceless.md "The composition follows the scenes"): scenes
// follow one another, each as long as its voice-over (measured by ffprobe when it was stored), or
// as its clip when it has no voice, or SILENT_SCENE_MS when it has neither. Per scene: its visual —
// a generated clip played once (held on its last frame if the voice runs longer), a still with
// Ken Burns motion, else a plain colour — dissolving into the next one; its voice-over; and the
// narration as captions, its words spread evenly over the scene (the scene text has no word
// timings).
import { isRenderFormat } from "../renders/index.js";
import { composeScenes, spreadWords, type NarratedScene } from "../scenes/index.js";
import type { FacelessScene } from "./scene-shape.js";

/** A scene with neither voice nor clip lasts this long. */
export const SILENT_SCENE_MS = 3_000;

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

/** The scene as the scene builder takes it. */
function narrated(scene: FacelessScene, signed: (key: string) => string): NarratedScene {
  const seconds = sceneDurationMs(scene) / 1000;
  return {
    duration: seconds,
    voice: scene.audio ? signed(scene.audio.key) : null,
    words: spreadWords(scene.text, seconds),
    visual: !scene.visual ? { kind: "color" } : scene.visual.kind === "video" ? { kind: "video", src: signed(scene.visual.key), loop: false } : { kind: "image", src: signed(scene.visual.key) },
  };
}

/**
 * The composition of the scenes, for a video of this format: plain captions, dissolves, no title
 * card or music. Scenes past the format's 600 s are left out (and the one crossing it cut); `null`
 * when there is no scene.
 */
export function facelessComposition(scenes: readonly FacelessScene[], format: string | null, signed: (key: string) => string): Record<string, unknown> | null {
  const made = composeScenes(scenes.map((scene) => narrated(scene, signed)), {
    format: isRenderFormat(format) ? format : "landscape",
    captions: "plain",
    transition: "dissolve",
    title: null,
    closing: null,
    music: null,
  });
  return made?.composition ?? null;
}
