// A drawn layer as a stream of pictures: each state an RGBA PNG of the same size shown for a time
// (a text's animation frames, a caption's word-by-word states). One still is an image input looped
// for the layer's time; several are an ffconcat list (ffmpeg's concat demuxer recognises it by its
// first line; the PNGs are named relative to it, which its safe mode accepts), made constant-rate
// and exactly the layer's length, so the builder's transitions have frames to work on. The stream's
// frames carry composition time from the layer's start.
import type { LayerContext, VisualLayerDrawing } from "../graph/layer-drawing.js";
import { num } from "../filter-values.js";

export interface PictureState {
  png: Buffer;
  /** Seconds this state is shown. */
  seconds: number;
}

export function statesDrawing(context: LayerContext, name: string, allStates: PictureState[], box: { x: number; y: number; width: number; height: number }, layerWindow: { start: number; end: number }): VisualLayerDrawing {
  const label = context.label(name);
  // A range starting inside the layer needs its pictures from there only (context.from).
  const window = { start: Math.max(layerWindow.start, Math.min(context.from ?? layerWindow.start, layerWindow.end)), end: layerWindow.end };
  const states = statesFrom(allStates, window.start - layerWindow.start);
  const length = window.end - window.start;
  const chain = [`setpts=PTS-STARTPTS+${num(window.start)}/TB[${label}]`];
  if (states.length === 1) {
    const input = context.input(context.file(`${name}.png`, states[0]!.png), { loopStillFor: length });
    return { kind: "overlay", chains: [`[${input}:v]format=rgba,trim=duration=${num(length)},${chain[0]}`], label, box, window };
  }
  const lines = ["ffconcat version 1.0"];
  states.forEach((state, index) => {
    const file = context.file(`${name}-${index}.png`, state.png);
    lines.push(`file ${file.split("/").at(-1)}`, `duration ${num(Math.max(state.seconds, 0.001))}`);
  });
  // The last picture listed again: the demuxer gives the last entry no duration of its own.
  lines.push(lines.at(-2)!);
  const input = context.input(context.file(`${name}.ffconcat`, `${lines.join("\n")}\n`));
  return {
    kind: "overlay",
    chains: [`[${input}:v]fps=${context.fps},format=rgba,tpad=stop_mode=clone:stop_duration=${num(length)},trim=duration=${num(length)},${chain[0]}`],
    label,
    box,
    window,
  };
}

/** The states shown from `skip` seconds into the layer on, the first one shortened to what is left of it. */
function statesFrom(states: PictureState[], skip: number): PictureState[] {
  if (skip <= 0) return states;
  let elapsed = 0;
  for (const [index, state] of states.entries()) {
    if (elapsed + state.seconds > skip + 1e-9 || index === states.length - 1) {
      return [{ ...state, seconds: Math.max(0, elapsed + state.seconds - skip) }, ...states.slice(index + 1)];
    }
    elapsed += state.seconds;
  }
  return states;
}

/** Times at which an animation of `seconds` changes picture, one per frame (at least one). */
export function animationSteps(seconds: number, fps: number): number {
  return Math.max(1, Math.round(seconds * fps));
}
