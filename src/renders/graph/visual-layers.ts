// Drawers of the visual layers the graph builder draws itself: color, image, video and shape (text
// layers come from src/renders/text/drawers.ts). Each returns an overlay drawing: an RGBA stream of
// its box in composition time (./layer-drawing.ts).
import sharp from "sharp";
import type { LayerOf } from "../composition.js";
import type { CompositionLayer } from "../../video-model/index.js";
import { ffmpegColor, num } from "../filter-values.js";
import { TEXT_DRAWERS } from "../text/drawers.js";
import { fitFilters } from "./fit.js";
import type { Box, LayerContext, VisualLayerDrawing } from "./layer-drawing.js";

/** The layer's box in output pixels; width and height default to the whole frame. */
function boxOf(layer: { x?: number; y?: number; width?: number; height?: number }, context: LayerContext): Box {
  return {
    x: context.px(layer.x ?? 0),
    y: context.px(layer.y ?? 0),
    width: layer.width === undefined ? context.size.width : context.px(layer.width, 1),
    height: layer.height === undefined ? context.size.height : context.px(layer.height, 1),
  };
}

/** The alpha fades of version 1's `fade_in`/`fade_out`, in composition time. */
function alphaFades(layer: { start: number; end: number; fade_in: number; fade_out: number }): string {
  return [
    ...(layer.fade_in > 0 ? [`,fade=t=in:st=${num(layer.start)}:d=${num(layer.fade_in)}:alpha=1`] : []),
    ...(layer.fade_out > 0 ? [`,fade=t=out:st=${num(layer.end - layer.fade_out)}:d=${num(layer.fade_out)}:alpha=1`] : []),
  ].join("");
}

const opacityFilter = (opacity: number) => (opacity < 1 ? `,colorchannelmixer=aa=${num(opacity)}` : "");
const toStart = (start: number) => `setpts=PTS-STARTPTS+${num(start)}/TB`;
/** Where the layer's stream starts (LayerContext.from): never before the layer. */
const streamStart = (layer: { start: number }, context: LayerContext) => Math.max(layer.start, context.from ?? layer.start);
const hasTransitions = (layer: { transition_in?: unknown; transition_out?: unknown }) => Boolean(layer.transition_in || layer.transition_out);

function drawColor(layer: LayerOf<"color">, context: LayerContext): VisualLayerDrawing {
  const label = context.label(`color${context.index}`);
  const { width, height } = context.size;
  const from = streamStart(layer, context);
  return {
    kind: "overlay",
    chains: [`color=c=${ffmpegColor(layer.color)}:s=${width}x${height}:r=${context.fps}:d=${num(layer.end - from)},format=rgba,${toStart(from)}[${label}]`],
    label,
    box: { x: 0, y: 0, width, height },
    window: { start: from, end: layer.end },
  };
}

function drawImage(layer: LayerOf<"image">, context: LayerContext): VisualLayerDrawing {
  const box = boxOf(layer, context);
  const label = context.label(`image${context.index}`);
  const finish = `${opacityFilter(layer.opacity)}${alphaFades(layer)}[${label}]`;
  let chain: string;
  if (layer.motion) {
    const stream = context.input(context.media(layer.src));
    const frames = Math.max(1, Math.round((layer.end - layer.start) * context.fps));
    chain = `[${stream}:v]${fitFilters("cover", box.width, box.height, context.scale)},${kenBurns(layer.motion, frames, box.width, box.height, context.fps)},${toStart(layer.start)},format=rgba${finish}`;
  } else {
    const fit = layer.fit ?? (context.version === 2 ? "cover" : "fill");
    // Fades need frames to fade; without them the one frame is held by the overlay.
    const looped = layer.fade_in > 0 || layer.fade_out > 0 || hasTransitions(layer);
    // Looped, it has frames from where the range needs them only.
    const from = looped ? streamStart(layer, context) : layer.start;
    const stream = context.input(context.media(layer.src), looped ? { loopStillFor: layer.end - from } : {});
    chain = `[${stream}:v]${fitFilters(fit, box.width, box.height, context.scale)}${looped ? `,${toStart(from)}` : ""}${finish}`;
    return { kind: "overlay", chains: [chain], label, box, window: { start: from, end: layer.end } };
  }
  return { kind: "overlay", chains: [chain], label, box, window: layer };
}

function drawVideo(layer: LayerOf<"video">, context: LayerContext): VisualLayerDrawing {
  const box = boxOf(layer, context);
  const label = context.label(`video${context.index}`);
  const sourceSeconds = (layer.end - layer.start) * layer.speed;
  const fit = layer.fit ?? (context.version === 2 ? "cover" : "fill");
  // A range starting well inside the clip (a later segment of a split render, a still) seeks the
  // input to a second before it rather than decoding the clip from its start. Seeking is exact
  // (the frames before the point are decoded and dropped) and shifts the input's timestamps, so
  // `skipped` puts them back: every frame lands where a whole render puts it.
  const skipped = layer.loop || streamStart(layer, context) <= layer.start ? 0 : Math.max(0, Math.floor((streamStart(layer, context) - layer.start) * layer.speed - 1));
  const stream = context.input(context.media(layer.src), layer.loop ? { loop: true } : skipped > 0 ? { seek: layer.offset + skipped } : {});
  const chain = skipped > 0
    ? [
        `[${stream}:v]trim=end=${num(sourceSeconds - skipped)}`,
        `setpts=(PTS+${num(skipped)}/TB)/${num(layer.speed)}+${num(layer.start)}/TB`,
      ]
    : [
        `[${stream}:v]trim=start=${num(layer.offset)}:duration=${num(sourceSeconds)}`,
        `setpts=(PTS-STARTPTS)/${num(layer.speed)}+${num(layer.start)}/TB`,
      ];
  chain.push(`fps=${context.fps}`, fitFilters(fit, box.width, box.height, context.scale));
  // Seeked, the stream starts `skipped` seconds of source into the layer.
  return { kind: "overlay", chains: [`${chain.join(",")}${alphaFades(layer)}[${label}]`], label, box, window: { start: layer.start + skipped / layer.speed, end: layer.end } };
}

/** The SVG of a shape of `width` × `height` (a progress bar's full bar). */
function shapeSvg(layer: LayerOf<"shape">, width: number, height: number, fill: string, context: LayerContext): string {
  const stroke = layer.stroke_width > 0 && layer.stroke_color ? context.px(layer.stroke_width, 1) : 0;
  const paint = (hex: string) => `fill="#${hex.slice(1, 7)}" fill-opacity="${num(Number.parseInt(hex.slice(7, 9), 16) / 255)}"`;
  const strokeAttributes = stroke ? ` stroke="#${layer.stroke_color!.slice(1, 7)}" stroke-opacity="${num(Number.parseInt(layer.stroke_color!.slice(7, 9), 16) / 255)}" stroke-width="${stroke}"` : "";
  const inset = stroke / 2;
  const [w, h] = [Math.max(0, width - stroke), Math.max(0, height - stroke)];
  const defaultRadius = layer.shape === "progress_bar" ? h / 2 : Math.min(w, h) / 4;
  const radius = layer.shape === "rect" ? 0 : Math.min(layer.radius === undefined ? defaultRadius : context.px(layer.radius), Math.min(w, h) / 2);
  const body = layer.shape === "circle"
    ? `<ellipse cx="${width / 2}" cy="${height / 2}" rx="${w / 2}" ry="${h / 2}" ${paint(fill)}${strokeAttributes}/>`
    : `<rect x="${inset}" y="${inset}" width="${w}" height="${h}" rx="${radius}" ry="${radius}" ${paint(fill)}${strokeAttributes}/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" opacity="${num(layer.opacity)}">${body}</svg>`;
}

async function rasterise(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function drawShape(layer: LayerOf<"shape">, context: LayerContext): Promise<VisualLayerDrawing> {
  const box = boxOf(layer, context);
  const label = context.label(`shape${context.index}`);
  // A progress bar's frames run from where the range needs them (its fill is a function of t).
  const from = streamStart(layer, context);
  const length = layer.end - from;
  if (layer.shape !== "progress_bar") {
    const file = context.file(`shape-${context.index}.png`, await rasterise(shapeSvg(layer, box.width, box.height, layer.color, context)));
    return { kind: "overlay", chains: [`[${context.input(file)}:v]format=rgba[${label}]`], label, box, window: layer };
  }
  // A progress bar: the full bar is cut by a window moving over an image twice its width (the bar,
  // then nothing), so the filled part grows from the left over the layer's time.
  const bar = await rasterise(shapeSvg({ ...layer, track_color: undefined }, box.width, box.height, layer.color, context));
  const doubled = await sharp({ create: { width: box.width * 2, height: box.height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).composite([{ input: bar, left: 0, top: 0 }]).png().toBuffer();
  const fillInput = context.input(context.file(`shape-${context.index}-fill.png`, doubled), { loopStillFor: length });
  const fill = context.label(`shape${context.index}_fill`);
  const progress = `clip((t-${num(layer.start)})/${num(layer.end - layer.start)}\\,0\\,1)`;
  const chains = [`[${fillInput}:v]format=rgba,${toStart(from)},crop=w=${box.width}:h=${box.height}:x='${box.width}*(1-${progress})':y=0[${fill}]`];
  if (layer.track_color) {
    const trackSvg = shapeSvg({ ...layer, stroke_width: 0 }, box.width, box.height, layer.track_color, context);
    const track = context.label(`shape${context.index}_track`);
    const trackInput = context.input(context.file(`shape-${context.index}-track.png`, await rasterise(trackSvg)), { loopStillFor: length });
    chains.push(`[${trackInput}:v]format=rgba,${toStart(from)}[${track}]`, `[${track}][${fill}]overlay=0:0:format=auto,format=rgba[${label}]`);
  } else {
    chains.push(`[${fill}]null[${label}]`);
  }
  return { kind: "overlay", chains, label, box, window: { start: from, end: layer.end } };
}

/**
 * zoompan of a Ken Burns move over `frames` frames of one still: zoom in or out around the
 * centre, or pan across at a fixed zoom. Expressions hold no comma (they sit in a filtergraph).
 */
function kenBurns(motion: NonNullable<LayerOf<"image">["motion"]>, frames: number, width: number, height: number, fps: number): string {
  const zoom = num(motion.zoom);
  const progress = `on/${frames}`;
  const centreX = "(iw-iw/zoom)/2";
  const centreY = "(ih-ih/zoom)/2";
  const [z, x, y] = {
    zoom_in: [`1+(${zoom}-1)*${progress}`, centreX, centreY],
    zoom_out: [`${zoom}-(${zoom}-1)*${progress}`, centreX, centreY],
    pan_left: [zoom, `(iw-iw/zoom)*(1-${progress})`, centreY],
    pan_right: [zoom, `(iw-iw/zoom)*${progress}`, centreY],
    pan_up: [zoom, centreX, `(ih-ih/zoom)*(1-${progress})`],
    pan_down: [zoom, centreX, `(ih-ih/zoom)*${progress}`],
  }[motion.type];
  return `zoompan=z='${z}':x='${x}':y='${y}':d=${frames}:s=${width}x${height}:fps=${fps}`;
}

export type VisualLayer = Extract<CompositionLayer, { type: "color" | "image" | "video" | "shape" | "text" | "subtitles" | "question" }>;

export function isVisualLayer(layer: CompositionLayer): layer is VisualLayer {
  return layer.type !== "audio" && layer.type !== "tone";
}

/** The drawing of any visual layer. */
export function drawVisualLayer(layer: VisualLayer, context: LayerContext): VisualLayerDrawing | Promise<VisualLayerDrawing> {
  switch (layer.type) {
    case "color": return drawColor(layer, context);
    case "image": return drawImage(layer, context);
    case "video": return drawVideo(layer, context);
    case "shape": return drawShape(layer, context);
    case "text": return TEXT_DRAWERS.text(layer, context);
    case "subtitles": return TEXT_DRAWERS.subtitles(layer, context);
    case "question": return TEXT_DRAWERS.question(layer, context);
    default: throw new Error(`Not a visual layer: ${(layer as { type: string }).type}`);
  }
}
