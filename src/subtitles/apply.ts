// Writing a subtitle track onto a video: the `subtitles` layer of its composition (replacing the
// first one there, if any, in place, and removing the others) and the track itself (`video_captions`). A video without a
// composition gets one as long as the media (at most the composition's 600 s), playing the media
// (a video clip with its sound, or an audio layer) under the subtitles. Times are the media's:
// the track assumes the media plays from the video's start.
import { compositionShape, MAX_DURATION_SECONDS, type StoredComposition, type SubtitleGroup, type SubtitleStyle } from "../video-model/index.js";
import { parseComposition } from "../renders/index.js";
import { fitGroups } from "../video-model/index.js";

export interface SubtitleSource {
  url: string;
  durationSeconds: number;
  hasPicture: boolean;
}

/** The stored composition of a video, or a 422 under `composition` when it does not parse. */
export function storedComposition(value: unknown): StoredComposition | undefined {
  if (value === null || value === undefined) return undefined;
  const parsed = compositionShape.safeParse(value);
  if (parsed.success) return parsed.data;
  parseComposition(value); // throws the 422 with every issue
  throw new Error("unreachable: parseComposition accepted what compositionShape refused");
}

/** The composition with the subtitles layer; the layer's index in it. */
export function withSubtitles(current: StoredComposition | undefined, source: SubtitleSource | undefined, groups: readonly SubtitleGroup[], style: SubtitleStyle): { composition: StoredComposition; layerIndex: number } {
  let composition = current;
  if (!composition) {
    const duration = Math.min(Math.max(source?.durationSeconds ?? 1, 0.1), MAX_DURATION_SECONDS);
    const media = source ? [source.hasPicture ? { type: "video", src: source.url, volume: 1 } : { type: "audio", src: source.url }] : [];
    composition = compositionShape.parse({ duration: Math.round(duration * 1000) / 1000, layers: media });
  }
  const layer = compositionShape.parse({ duration: composition.duration, layers: [{ type: "subtitles", groups: fitGroups(groups, composition.duration), style }] }).layers[0]!;
  const existing = composition.layers.findIndex((item) => item.type === "subtitles");
  // The track replaces every caption there: the scene builder (src/scenes) keeps a layer per scene.
  const layers = composition.layers.filter((item, index) => item.type !== "subtitles" || index === existing);
  if (existing >= 0) layers[existing] = layer;
  else layers.push(layer);
  return { composition: { ...composition, layers }, layerIndex: existing >= 0 ? existing : layers.length - 1 };
}
