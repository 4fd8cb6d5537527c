// Transitions of visual layers (transition_in / transition_out, src/video-model/timeline/transitions.ts).
//
// An overlay layer (an RGBA stream of its box) transitions against a transparent canvas of its box
// with xfade: in = transparent → layer, out = layer → transparent, so what is beneath shows where
// the layer is not yet (or no longer) drawn. xfade's own transitions serve fade, dissolve, wipes,
// slides and circles; the zooms are xfade custom expressions that scale the layer about its centre.
// Two overlapping layers, the first going out as the second comes in, make a cross transition; for
// the types that only reveal (fade, dissolve, wipe_*, circle_*) the first layer is held opaque
// until its end instead, so the second draws over it exactly as a cross transition between the two
// (no dip to the background at half-way).
//
// An in-place layer (drawn on the running video) transitions by `blend` of the video with the
// layer and without it, inside the transition windows only; slides and zooms need the layer as a
// stream of its own and become a fade there.
import type { Transition, TransitionType } from "../../video-model/index.js";
import { num } from "../filter-values.js";
import type { GraphState } from "./graph-state.js";
import type { Box, TimeWindow } from "./layer-drawing.js";

export interface LayerTransitions {
  in?: Transition;
  out?: Transition;
}

const XFADE: Partial<Record<TransitionType, string>> = {
  fade: "fade", dissolve: "dissolve",
  wipe_left: "wipeleft", wipe_right: "wiperight", wipe_up: "wipeup", wipe_down: "wipedown",
  slide_left: "slideleft", slide_right: "slideright", slide_up: "slideup", slide_down: "slidedown",
  circle_open: "circleopen", circle_close: "circleclose",
};

/** Types whose in-transition only reveals the layer where it will be: the one below may stay put. */
const REVEALING = new Set<TransitionType>(["fade", "dissolve", "wipe_left", "wipe_right", "wipe_up", "wipe_down", "circle_open", "circle_close"]);

/**
 * xfade custom expression of a zoom. `scale` is the layer's scale as a function of P (xfade's
 * progress, 1 → 0); `fade` its opacity. The layer is `a` (out) or `b` (in).
 */
function zoomExpression(side: "a" | "b", scale: string, fade: string): string {
  const sample = (plane: number) => `${side}${plane}(ld(1),ld(2))`;
  const inside = "between(ld(1),0,W-1)*between(ld(2),0,H-1)";
  return [
    `st(0,max(${scale},0.001))`,
    "st(1,W/2+(X-W/2)/ld(0))",
    "st(2,H/2+(Y-H/2)/ld(0))",
    `if(${inside},if(eq(PLANE,0),${sample(0)},if(eq(PLANE,1),${sample(1)},if(eq(PLANE,2),${sample(2)},${sample(3)}*(${fade})))),0)`,
  ].join(";");
}

function xfadeOptions(transition: Transition, direction: "in" | "out"): string {
  const named = XFADE[transition.type];
  if (named) return `transition=${named}`;
  // Zooms. In: the layer is b, P runs 1 → 0 (so 1-P is how far in it is).
  const expression = {
    in: { zoom_in: zoomExpression("b", "1-P", "1-P"), zoom_out: zoomExpression("b", "1+P", "1-P") },
    out: { zoom_in: zoomExpression("a", "2-P", "P"), zoom_out: zoomExpression("a", "P", "P") },
  }[direction][transition.type as "zoom_in" | "zoom_out"];
  return `transition=custom:expr='${expression}'`;
}

/**
 * Applies the transitions to an overlay stream `label` (RGBA, box size, composition time from
 * window.start); returns the label of the result, again in composition time.
 */
export function transitionOverlay(state: GraphState, label: string, box: Box, window: TimeWindow, transitions: LayerTransitions, fps: number): string {
  if (!transitions.in && !transitions.out) return label;
  const length = window.end - window.start;
  const canvas = (duration: number) => `color=c=black@0:s=${box.width}x${box.height}:r=${fps}:d=${num(duration)},format=rgba,settb=expr=1/${fps}`;
  let current = state.label(`${label}_t0`);
  // A stream of frames over the whole window at the output rate (a still's one frame held).
  state.push(`[${label}]setpts=PTS-STARTPTS,tpad=stop=-1:stop_mode=clone,fps=${fps},trim=duration=${num(length)},format=rgba,settb=expr=1/${fps}[${current}]`);
  if (transitions.in) {
    const blank = state.label(`${label}_blank_in`);
    const next = state.label(`${label}_in`);
    state.push(`${canvas(transitions.in.duration)}[${blank}]`);
    state.push(`[${blank}][${current}]xfade=${xfadeOptions(transitions.in, "in")}:duration=${num(transitions.in.duration)}:offset=0[${next}]`);
    current = next;
  }
  if (transitions.out) {
    const blank = state.label(`${label}_blank_out`);
    const next = state.label(`${label}_out`);
    state.push(`${canvas(transitions.out.duration)}[${blank}]`);
    state.push(`[${current}][${blank}]xfade=${xfadeOptions(transitions.out, "out")}:duration=${num(transitions.out.duration)}:offset=${num(length - transitions.out.duration)}[${next}]`);
    current = next;
  }
  const placed = state.label(`${label}_placed`);
  state.push(`[${current}]setpts=PTS-STARTPTS+${num(window.start)}/TB[${placed}]`);
  return placed;
}

/** The blend expression of how much of the layer shows (0–1) at pixel X,Y for progress `p` (a register). */
function revealExpression(type: TransitionType): string {
  const p = "ld(0)";
  switch (type) {
    case "wipe_left": return `gte(X,W*(1-${p}))`;
    case "wipe_right": return `lte(X,W*${p})`;
    case "wipe_up": return `gte(Y,H*(1-${p}))`;
    case "wipe_down": return `lte(Y,H*${p})`;
    case "circle_open": return `lte(hypot(X-W/2,Y-H/2),${p}*hypot(W/2,H/2))`;
    case "circle_close": return `gte(hypot(X-W/2,Y-H/2),(1-${p})*hypot(W/2,H/2))`;
    // A fixed pseudo-random threshold per pixel.
    case "dissolve": return `lte(mod(abs(sin(X*12.9898+Y*78.233))*43758.5453,1),${p})`;
    default: return p; // fade, and the moving types (slide_*, zoom_*) that cannot move here
  }
}

/**
 * The chains that draw an in-place layer with its transitions: `video` with the layer drawn by
 * `filter`, mixed with `video` without it inside the transition windows. Returns the new label.
 */
export function transitionInPlace(state: GraphState, video: string, filter: string, window: TimeWindow, transitions: LayerTransitions, name: string): string {
  const drawn = state.label(`${name}_drawn`);
  if (!transitions.in && !transitions.out) {
    state.push(`[${video}]${filter}[${drawn}]`);
    return drawn;
  }
  const [withLayer, without, out] = [state.label(`${name}_with`), state.label(`${name}_without`), state.label(`${name}_mixed`)];
  state.push(`[${video}]split[${withLayer}][${without}]`);
  state.push(`[${withLayer}]${filter}[${drawn}]`);
  const parts: string[] = [];
  const windows: string[] = [];
  let expression = "1";
  if (transitions.out) {
    const { type, duration } = transitions.out;
    const from = window.end - duration;
    windows.push(`between(t,${num(from)},${num(window.end)})`);
    expression = `if(gte(T,${num(from)}),st(0,clip((${num(window.end)}-T)/${num(duration)},0,1));${revealExpression(type)},${expression})`;
  }
  if (transitions.in) {
    const { type, duration } = transitions.in;
    windows.push(`between(t,${num(window.start)},${num(window.start + duration)})`);
    expression = `if(lt(T,${num(window.start + duration)}),st(0,clip((T-${num(window.start)})/${num(duration)},0,1));${revealExpression(type)},${expression})`;
  }
  parts.push(`[${drawn}][${without}]blend=all_expr='A*(${expression})+B*(1-(${expression}))':enable='${windows.join("+")}'[${out}]`);
  state.push(...parts);
  return out;
}

/**
 * Cross transitions: for layer `index`, drops its out-transition when a later layer comes in over
 * it with a revealing transition of the same type, in the same box, while it goes out (their
 * windows line up within a frame), and holds it opaque until its end instead.
 */
type Placed = { start: number; end: number; transition_in?: Transition; transition_out?: Transition; x?: unknown; y?: unknown; width?: unknown; height?: unknown };
const sameBox = (a: Placed, b: Placed) => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

export function crossTransitionHolds(layers: readonly Placed[], fps: number): Set<number> {
  const holds = new Set<number>();
  const frame = 1 / fps + 1e-6;
  layers.forEach((outgoing, index) => {
    const out = outgoing.transition_out;
    if (!out || !REVEALING.has(out.type)) return;
    const outStart = outgoing.end - out.duration;
    const incoming = layers.slice(index + 1).find((layer) => layer.transition_in?.type === out.type && sameBox(layer, outgoing) && Math.abs(layer.start - outStart) <= frame && Math.abs(layer.transition_in.duration - out.duration) <= frame);
    if (incoming) holds.add(index);
  });
  return holds;
}
