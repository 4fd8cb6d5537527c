// The sound of a render: every audio and tone layer, and the sound of video clips with a volume,
// becomes a 48 kHz stereo stream placed at its start (fades, volume, speed applied) and padded to
// the composition's end; music is ducked under voice by sidechain compression; the streams are
// summed (amix without normalisation: each keeps its level); the result is cut to the range
// rendered and, when the composition asks for it, brought to its loudness by the second pass of
// EBU R128 loudnorm with the values the first pass measured (./loudness.ts).
import type { Composition, LayerOf } from "../composition.js";
import { num } from "../filter-values.js";
import type { GraphState } from "./graph-state.js";
import type { TimeWindow } from "./layer-drawing.js";
import { LOUDNESS_DEFAULTS } from "../../video-model/index.js";

export const AUDIO_SAMPLE_RATE = 48_000;

export interface LoudnessTarget {
  integrated: number;
  true_peak: number;
}

/** What loudnorm's first pass measured (its JSON, as numbers). */
export interface MeasuredLoudness {
  input_i: number;
  input_tp: number;
  input_lra: number;
  input_thresh: number;
  target_offset: number;
}

/** The composition's loudness target, or undefined to keep levels (version 1's default). */
export function loudnessTarget(composition: Composition): LoudnessTarget | undefined {
  const setting = composition.loudness ?? (composition.version === 2 ? LOUDNESS_DEFAULTS : false);
  return setting === false ? undefined : setting;
}

/** Loudness range target of loudnorm: wide, so speech and music keep their dynamics. */
const LRA = 11;

type Role = "voice" | "music" | "effect";

interface PlacedSound {
  label: string;
  role: Role;
  duck: boolean;
}

/** A sound placed in composition time: format, speed, volume, fades, delay, padding to the end. */
function place(source: string, layer: { start: number; end: number }, options: { volume: number; tempo?: number; fadeIn: number; fadeOut: number }, duration: number, label: string): string {
  const length = layer.end - layer.start;
  const delayMs = Math.round(layer.start * 1000);
  return [
    source,
    `aformat=sample_fmts=fltp:sample_rates=${AUDIO_SAMPLE_RATE}:channel_layouts=stereo`,
    ...atempo(options.tempo ?? 1),
    ...(options.tempo && options.tempo !== 1 ? [`atrim=duration=${num(length)}`] : []),
    ...(options.volume !== 1 ? [`volume=${num(options.volume)}`] : []),
    ...(options.fadeIn > 0 ? [`afade=t=in:st=0:d=${num(options.fadeIn)}`] : []),
    ...(options.fadeOut > 0 ? [`afade=t=out:st=${num(length - options.fadeOut)}:d=${num(options.fadeOut)}`] : []),
    ...(delayMs > 0 ? [`adelay=delays=${delayMs}|${delayMs}`] : []),
    "apad",
    `atrim=duration=${num(duration)}[${label}]`,
  ].join(",");
}

/** atempo steps for a speed (one atempo takes 0.5–2 without artefacts). */
function atempo(speed: number): string[] {
  const steps: string[] = [];
  let rest = speed;
  while (rest < 0.5) { steps.push("atempo=0.5"); rest /= 0.5; }
  while (rest > 2) { steps.push("atempo=2"); rest /= 2; }
  if (Math.abs(rest - 1) > 1e-9) steps.push(`atempo=${num(rest)}`);
  return steps;
}

function placeLayer(state: GraphState, layer: LayerOf<"audio"> | LayerOf<"tone"> | LayerOf<"video">, index: number, composition: Composition, media: (src: string) => string): PlacedSound | undefined {
  const label = state.label(`sound${index}`);
  const length = layer.end - layer.start;
  const duration = composition.duration;
  const role: Role = layer.role ?? "effect";
  switch (layer.type) {
    case "audio": {
      const stream = state.input(media(layer.src));
      state.push(place(`[${stream}:a]atrim=start=${num(layer.offset)}:duration=${num(length)},asetpts=PTS-STARTPTS`, layer, { volume: layer.volume, fadeIn: layer.fade_in, fadeOut: layer.fade_out }, duration, label));
      break;
    }
    case "tone": {
      const wave = `${num(layer.volume)}*sin(2*PI*${num(layer.frequency)}*t)`;
      state.push(place(`aevalsrc=exprs=${wave}:c=stereo:s=${AUDIO_SAMPLE_RATE}:d=${num(length)}`, layer, { volume: 1, fadeIn: layer.fade_in, fadeOut: layer.fade_out }, duration, label));
      break;
    }
    case "video": {
      if (layer.volume <= 0) return undefined;
      const stream = state.input(media(layer.src), layer.loop ? { loop: true } : {});
      // Version 1 faded only the picture of a clip; version 2 fades its sound with it.
      const fades = composition.version === 2 ? { fadeIn: layer.fade_in, fadeOut: layer.fade_out } : { fadeIn: 0, fadeOut: 0 };
      state.push(place(`[${stream}:a]atrim=start=${num(layer.offset)}:duration=${num(length * layer.speed)},asetpts=PTS-STARTPTS`, layer, { volume: layer.volume, tempo: layer.speed, ...fades }, duration, label));
      break;
    }
  }
  return { label, role, duck: layer.duck };
}

function mix(state: GraphState, labels: string[], name: string): string {
  if (labels.length === 1) return labels[0]!;
  const out = state.label(name);
  state.push(`${labels.map((label) => `[${label}]`).join("")}amix=inputs=${labels.length}:duration=longest:dropout_transition=0:normalize=0[${out}]`);
  return out;
}

export interface AudioGraphOptions {
  media: (src: string) => string;
  range: TimeWindow;
  /** "measure": end in loudnorm's first pass (print its JSON); measured values: apply the second pass. */
  loudness?: "measure" | MeasuredLoudness;
}

/** Adds the sound chains to `state`; returns the label of the stereo 48 kHz track of `range`. */
export function buildAudio(state: GraphState, composition: Composition, options: AudioGraphOptions): string {
  const sounds: PlacedSound[] = [];
  composition.layers.forEach((layer, index) => {
    if (layer.type !== "audio" && layer.type !== "tone" && layer.type !== "video") return;
    if (layer.end <= options.range.start || layer.start >= options.range.end) return;
    const placed = placeLayer(state, layer, index, composition, options.media);
    if (placed) sounds.push(placed);
  });

  let mixed: string;
  if (sounds.length === 0) {
    mixed = state.label("silence");
    state.push(`anullsrc=r=${AUDIO_SAMPLE_RATE}:cl=stereo,atrim=duration=${num(composition.duration)}[${mixed}]`);
  } else {
    const voices = sounds.filter((sound) => sound.role === "voice").map((sound) => sound.label);
    const ducked = sounds.filter((sound) => sound.role === "music" && sound.duck).map((sound) => sound.label);
    const rest = sounds.filter((sound) => !(sound.role === "voice" || (sound.role === "music" && sound.duck))).map((sound) => sound.label);
    if (voices.length > 0 && ducked.length > 0) {
      const voice = mix(state, voices, "voice");
      const [heard, key, music, lowered] = [state.label("voice_heard"), state.label("voice_key"), mix(state, ducked, "music"), state.label("music_ducked")];
      state.push(`[${voice}]asplit=2[${heard}][${key}]`);
      // About 12 dB down while a voice speaks; back up within half a second after it stops.
      state.push(`[${music}][${key}]sidechaincompress=threshold=0.02:ratio=8:attack=20:release=400:makeup=1[${lowered}]`);
      mixed = mix(state, [heard, lowered, ...rest], "mix");
    } else {
      mixed = mix(state, [...voices, ...ducked, ...rest], "mix");
    }
  }

  const out = state.label("aout");
  const target = loudnessTarget(composition);
  const cut = `atrim=start=${num(options.range.start)}:end=${num(options.range.end)},asetpts=PTS-STARTPTS`;
  const base = `loudnorm=I=${num(target?.integrated ?? -14)}:TP=${num(target?.true_peak ?? -1)}:LRA=${LRA}`;
  if (target && options.loudness === "measure") {
    state.push(`[${mixed}]${cut},${base}:print_format=json[${out}]`);
  } else if (target && typeof options.loudness === "object" && Number.isFinite(options.loudness.input_i) && options.loudness.input_i > -70) {
    const m = options.loudness;
    const measured = `measured_I=${num(m.input_i)}:measured_TP=${num(m.input_tp)}:measured_LRA=${num(m.input_lra)}:measured_thresh=${num(m.input_thresh)}:offset=${num(m.target_offset)}`;
    state.push(`[${mixed}]${cut},${base}:${measured}:linear=true:print_format=none,aresample=${AUDIO_SAMPLE_RATE},aformat=sample_fmts=fltp:channel_layouts=stereo[${out}]`);
  } else {
    state.push(`[${mixed}]${cut}[${out}]`);
  }
  return out;
}

/** Reads loudnorm's first-pass JSON from ffmpeg's stderr; undefined when there is none. */
export function parseLoudnormJson(stderr: string): MeasuredLoudness | undefined {
  const start = stderr.lastIndexOf("{");
  const end = stderr.lastIndexOf("}");
  if (start < 0 || end < start) return undefined;
  try {
    const json = JSON.parse(stderr.slice(start, end + 1)) as Record<string, string>;
    const value = (key: string) => Number(json[key]);
    return { input_i: value("input_i"), input_tp: value("input_tp"), input_lra: value("input_lra"), input_thresh: value("input_thresh"), target_offset: value("target_offset") };
  } catch {
    return undefined;
  }
}
