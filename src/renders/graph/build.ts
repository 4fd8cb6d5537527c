// The one render graph builder: a parsed composition (or a time range of it) → the ffmpeg inputs,
// the files they read and a filtergraph whose video ends in one label and whose sound ends in
// another. Whole renders, stills, audio-only outputs and (issue 26) the segments of a split render
// all come from here; ../render-command.ts turns a graph into an encoding command.
//
// Video: a background colour of the frame, then each visual layer in order, drawn by its drawer
// (./layer-drawing.ts: an RGBA overlay stream, or a filter in place), transitioned
// (./transitions.ts) and overlaid inside its time window. The graph runs in composition time and
// is cut to the range at the end, so a range renders exactly the frames a whole render has there.
// Sound: ./audio.ts.
import type { Composition } from "../composition.js";
import { ffmpegColor, num } from "../filter-values.js";
import { buildAudio, type MeasuredLoudness } from "./audio.js";
import { GraphState } from "./graph-state.js";
import type { LayerContext, TimeWindow } from "./layer-drawing.js";
import { crossTransitionHolds, transitionInPlace, transitionOverlay } from "./transitions.js";
import { drawVisualLayer, isVisualLayer, type VisualLayer } from "./visual-layers.js";

/** The picture a render draws: the output frame, and the composition's area in it. */
export interface RenderFrame {
  /** Output size (what the encoder gets). */
  width: number;
  height: number;
  /** The composition drawn at `scale`, centred in the output (equal to it unless letterboxed). */
  contentWidth: number;
  contentHeight: number;
  /** Output pixels per composition pixel. */
  scale: number;
}

export interface RenderGraphInput {
  composition: Composition;
  frame: RenderFrame;
  fps: number;
  /** Local file of each media `src`. */
  media: ReadonlyMap<string, string>;
  /** Absolute directory for the files the graph reads. */
  workDir: string;
  /** Seconds of the composition to render, [start, end); default all of it. */
  range?: TimeWindow;
  /** Which streams to build (default both). */
  video?: boolean;
  audio?: boolean;
  /** Loudness pass (./audio.ts): "measure" for the first pass, measured values for the second. */
  loudness?: "measure" | MeasuredLoudness;
}

export interface RenderGraph {
  /** ffmpeg input arguments (`-i …` with their options). */
  inputs: string[];
  /** Files to write before ffmpeg runs. */
  files: { path: string; content: string | Uint8Array }[];
  /** The filtergraph (`-filter_complex`). */
  filter: string;
  /** Label of the video (composition time cut to the range, starting at 0), when built. */
  video?: string;
  /** Label of the 48 kHz stereo sound, when built. */
  audio?: string;
  /** Seconds the graph's streams last. */
  duration: number;
}

/** The frames of a range: [first, last) of a whole render's frames k at k/fps with start ≤ k/fps < end. */
export function frameSpan(range: TimeWindow, fps: number): [number, number] {
  const frameOf = (seconds: number) => Math.ceil(seconds * fps - 1e-6);
  const [first, last] = [frameOf(range.start), frameOf(range.end)];
  // A still asked for between the last frame and the end shows the last frame.
  return last > first ? [first, last] : [Math.max(0, last - 1), Math.max(1, last)];
}

export async function buildRenderGraph(input: RenderGraphInput): Promise<RenderGraph> {
  const { composition, frame, fps } = input;
  const range = input.range ?? { start: 0, end: composition.duration };
  const state = new GraphState(input.workDir, fps);
  const media = (src: string): string => {
    const file = input.media.get(src);
    if (!file) throw new Error(`No local file for ${src}`);
    return file;
  };
  const graph: RenderGraph = { inputs: state.inputs, files: state.files, filter: "", duration: range.end - range.start };

  if (input.video !== false) {
    let video = state.label("base");
    // The frames drawn are those of a whole render inside the range: frame k (at k/fps) for
    // first ≤ k < last. The background starts at the range's first frame, so a range (a segment
    // of a split render, a still) draws nothing before it: each layer's stream keeps composition
    // time, and the overlays pick the frames at the background's times.
    const [first, last] = frameSpan(range, fps);
    state.push(first === 0
      ? `color=c=${ffmpegColor(composition.background_color)}:s=${frame.contentWidth}x${frame.contentHeight}:r=${fps}:d=${num(range.end)}[${video}]`
      : `color=c=${ffmpegColor(composition.background_color)}:s=${frame.contentWidth}x${frame.contentHeight}:r=${fps},trim=end_frame=${last - first + 1},setpts=PTS+${first}[${video}]`);
    const holds = crossTransitionHolds(composition.layers, fps);
    for (const [index, item] of composition.layers.entries()) {
      if (!isVisualLayer(item) || item.end < range.start || item.start >= range.end) continue;
      const layer = (holds.has(index) ? { ...item, transition_out: undefined } : item) as VisualLayer;
      const inDuration = (layer as { transition_in?: { duration: number } }).transition_in?.duration ?? 0;
      const from = range.start > layer.start + inDuration ? layer.start + Math.floor((range.start - layer.start) * fps + 1e-6) / fps : layer.start;
      const context: LayerContext = {
        index,
        size: { width: frame.contentWidth, height: frame.contentHeight },
        scale: frame.scale,
        px: (value, min = 0) => Math.max(min, Math.round(value * frame.scale)),
        fps,
        version: composition.version ?? 1,
        range,
        from,
        input: (file, options) => state.input(file, options),
        media,
        file: (name, content) => state.file(name, content),
        label: (name) => state.label(name),
        workDir: input.workDir,
      };
      const drawing = await drawVisualLayer(layer, context);
      // A drawing that starts after the layer (inside the range) is past its in-transition.
      const transitions = {
        in: drawing.window.start > layer.start + 1e-9 ? undefined : (layer as { transition_in?: never }).transition_in,
        out: (layer as { transition_out?: never }).transition_out,
      };
      if (drawing.kind === "overlay") {
        state.push(...drawing.chains);
        const stream = transitionOverlay(state, drawing.label, drawing.box, drawing.window, transitions, fps);
        const next = state.label(`v${index}`);
        state.push(`[${video}][${stream}]overlay=x=${drawing.box.x}:y=${drawing.box.y}:enable='between(t,${num(drawing.window.start)},${num(drawing.window.end)})'[${next}]`);
        video = next;
      } else {
        video = transitionInPlace(state, video, drawing.filter, drawing.window, transitions, `layer${index}`);
      }
    }
    const out = state.label("vout");
    const letterbox = frame.contentWidth !== frame.width || frame.contentHeight !== frame.height
      ? `,pad=${frame.width}:${frame.height}:(ow-iw)/2:(oh-ih)/2:color=${ffmpegColor(composition.background_color)}`
      : "";
    // Cut a quarter of a frame before each end, so rounding never moves a frame across a segment's
    // edge. Not half a frame: trim rounds its times to the stream's 1/fps steps, and a time printed
    // to the millisecond half a frame early can round down onto the last frame (23.5/12 s → frame
    // 23), dropping it.
    state.push(`[${video}]trim=start=${num((first - 0.25) / fps)}:end=${num((last - 0.25) / fps)},setpts=PTS-STARTPTS${letterbox}[${out}]`);
    graph.video = out;
  }
  if (input.audio !== false) graph.audio = buildAudio(state, composition, { media, range, loudness: input.loudness });
  graph.filter = state.chains.join(";");
  return graph;
}
