// The contract between the graph builder (./build.ts) and whatever draws one visual layer (the
// builder's own image/video/color/shape drawers in ./visual-layers.ts, the text drawers in
// src/renders/text/). A drawer turns one layer into one of two drawings:
//
// - `overlay`: filter chains that end in `label`, an RGBA stream of the layer's box. Its frames
//   carry composition time: the first frame's timestamp is `window.start` (drawers usually end
//   their chain with `setpts=PTS-STARTPTS+<start>/TB`). The builder then applies the layer's
//   transitions to that stream (every type) and overlays it at `box.x`, `box.y` on the running
//   video, shown only inside the window. A stream may be a single frame (a still): the builder
//   holds it over the window. Text drawn by drawtext on a transparent canvas, or an RGBA
//   PNG rasterised beforehand and declared with `context.input`, is this kind.
// - `in_place`: one filter chain (no labels) applied to the running video itself; the chain must
//   draw only inside the window (e.g. `enable='between(t,a,b)'`, see `enable` in
//   ../filter-values.ts). The builder gives such a layer its transitions by mixing the video
//   without the layer and with it (fade, dissolve, wipe_*, circle_*); slide_* and zoom_* need a
//   stream of the layer's own and fall back to a fade here. libass (`ass`) captions are this kind:
//   on ffmpeg 5.1 libass writes no alpha on a transparent canvas.
//
// Drawers never add inputs or files by hand: `context.input` declares a file ffmpeg reads (a media
// `src`, or a file the drawer wrote) and returns its stream specifier; `context.file` writes a file
// into the render's work directory before ffmpeg runs and returns its absolute path. Pixel values of
// a composition are in the video format's pixels (1920×1080 for landscape …); the render may be
// smaller or larger (`output.resolution`), so drawers multiply every pixel value by `context.scale`
// (`context.px(n)` rounds it) and draw on a frame of `context.size`.

/** Seconds of composition time, [start, end). */
export interface TimeWindow {
  start: number;
  end: number;
}

/** A rectangle on the output frame, in output pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type VisualLayerDrawing =
  | {
      kind: "overlay";
      /** Filter chains (with their labels, joined by `;` into the graph) ending in `label`. */
      chains: string[];
      /** Label of the RGBA stream of the layer, sized box.width × box.height. */
      label: string;
      box: Box;
      window: TimeWindow;
    }
  | {
      kind: "in_place";
      /** A chain of filters without labels, drawn on the running video inside `window`. */
      filter: string;
      window: TimeWindow;
    };

export interface InputOptions {
  /** Loop a still image (`-loop 1`) at the output frame rate, for this many seconds. */
  loopStillFor?: number;
  /** Loop the whole input forever (`-stream_loop -1`); trim it in the graph. */
  loop?: boolean;
  /** Start reading at this second of the input (`-ss` before `-i`; its timestamps then start there at 0). */
  seek?: number;
}

export interface LayerContext {
  /** Index of the layer in `composition.layers` (for unique names). */
  index: number;
  /** Output frame size, in output pixels. */
  size: { width: number; height: number };
  /** Output pixels per composition pixel. */
  scale: number;
  /** `Math.round(value * scale)`, at least `min` (default 0). */
  px(value: number, min?: number): number;
  fps: number;
  /** The composition's version: 1 (absent) keeps the defaults of before version 2. */
  version: 1 | 2;
  /** The part of the composition this run renders (split rendering draws a range). */
  range: TimeWindow;
  /**
   * When the layer's stream may start: the layer's start, or, when the range starts later and the
   * layer's in-transition is over by then, the last frame of the layer's own at or before the
   * range's start. A drawer that starts its stream there (drawing only what the range shows)
   * returns a window starting there; the builder then applies no in-transition. Absent: the
   * layer's start.
   */
  from?: number;
  /** Declares a file ffmpeg reads as an input; returns its index (use `[${n}:v]` or `[${n}:a]`). */
  input(file: string, options?: InputOptions): number;
  /** The local file of a media `src` (downloaded or read from storage before the build). */
  media(src: string): string;
  /** Writes `content` to `name` in the work directory before ffmpeg runs; returns its absolute path. */
  file(name: string, content: string | Uint8Array): string;
  /** A graph label no other layer uses, made from `name`. */
  label(name: string): string;
  /** Absolute directory of the render's files. */
  workDir: string;
}

/** Draws one layer; may be async (e.g. rasterising text to a PNG before ffmpeg runs). */
export type VisualLayerDrawer<L> = (layer: L, context: LayerContext) => VisualLayerDrawing | Promise<VisualLayerDrawing>;
