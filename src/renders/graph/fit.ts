// How an image or a video clip fills its box (`fit`): the scale/crop/pad filters that make a
// source exactly box-sized RGBA. cover fills the box and crops the overflow, contain fits inside
// it with transparent bars, fill stretches, none keeps the source's own size (times the render's
// scale), centred and cropped to the box.
import type { FIT_MODES } from "../../video-model/index.js";

export type Fit = (typeof FIT_MODES)[number];

const CENTRED_PAD = (width: number, height: number) => `pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2:color=black@0`;

export function fitFilters(fit: Fit, width: number, height: number, scale: number): string {
  switch (fit) {
    case "fill": return `scale=${width}:${height},setsar=1,format=rgba`;
    case "cover": return `scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},setsar=1,format=rgba`;
    case "contain": return `scale=${width}:${height}:force_original_aspect_ratio=decrease,setsar=1,format=rgba,${CENTRED_PAD(width, height)}`;
    case "none": {
      const resize = scale === 1 ? "" : `scale=trunc(iw*${scale}/2)*2:trunc(ih*${scale}/2)*2,`;
      return `${resize}setsar=1,format=rgba,crop=min(iw\\,${width}):min(ih\\,${height}),${CENTRED_PAD(width, height)}`;
    }
  }
}
