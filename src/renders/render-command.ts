// The ffmpeg command of a render, built from a parsed composition. Pure: it returns the arguments
// and the text files drawtext reads (written by the caller into workDir), and runs nothing.
//
// Video: a base colour source of the output size, then each layer over the result in order, shown
// between its start and end (`enable=between(t,start,end)`). Images are scaled to their box and
// held (overlay repeats an image's single frame); text is drawtext reading a file, with expansion
// off, so no character of the text is ever interpreted.
// Audio: every audio and tone layer becomes a 48 kHz stereo stream that is trimmed to its layer's
// length, delayed to its start and padded to the video's duration; the streams are mixed by amix
// and multiplied back by their count. That is amix with normalisation off: amix divides each of n
// equally long inputs by n, and this 2018 build predates amix's `normalize` option. Without any
// audio layer the output still gets a silent track (anullsrc), so every render has audio. The
// mixed track is cut into frames of AAC's 1024 samples before the encoder: this build does not
// size a complex graph's audio frames for the encoder, and a delayed, padded stream (one tone
// that starts late) otherwise arrives in larger frames the encoder refuses.
import path from "node:path";
import type { Composition, LayerOf } from "./composition.js";

interface RenderCommandInput {
  composition: Composition;
  size: { width: number; height: number };
  /** Local file of each media `src` (image and audio layers). */
  media: ReadonlyMap<string, string>;
  /** Absolute directory for the text files; also a good cwd for ffmpeg. */
  workDir: string;
  fontFile: string;
  outputPath: string;
  /** x264 preset; default veryfast. */
  preset?: string;
}

interface RenderCommand {
  args: string[];
  /** Files the command reads, to be written before it runs. */
  files: { path: string; content: string }[];
}

const AUDIO_SAMPLE_RATE = 48_000;
/** Frames of exactly AAC's frame size (the last one not padded). */
const AAC_FRAMES = "asetnsamples=n=1024:p=0";

/** Escapes a value for an option inside a filtergraph: once for the option parser, once for the graph parser. */
export function escapeFilterValue(value: string): string {
  const optionLevel = value.replace(/[\\':]/g, (char) => `\\${char}`);
  return optionLevel.replace(/[\\'[\],;]/g, (char) => `\\${char}`);
}

/** A number as ffmpeg reads it: plain decimal notation, millisecond precision. */
function num(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

/** `#RRGGBBAA` → ffmpeg's `0xRRGGBB@alpha`. */
function ffmpegColor(hex: string): string {
  const alpha = Number.parseInt(hex.slice(7, 9), 16) / 255;
  return `0x${hex.slice(1, 7)}@${num(alpha)}`;
}

function enable(layer: { start: number; end: number }): string {
  return `enable='between(t,${num(layer.start)},${num(layer.end)})'`;
}

export function buildRenderCommand(input: RenderCommandInput): RenderCommand {
  const { composition, size, workDir } = input;
  const duration = num(composition.duration);
  const inputs: string[] = [];
  const files: RenderCommand["files"] = [];
  const graph: string[] = [];
  /** Labels of the placed audio streams, mixed at the end. */
  const audio: string[] = [];

  const addInput = (src: string): number => {
    const file = input.media.get(src);
    if (!file) throw new Error(`No local file for ${src}`);
    inputs.push("-i", file);
    return inputs.length / 2 - 1;
  };

  let video = "base";
  graph.push(`color=c=${ffmpegColor(composition.background_color)}:s=${size.width}x${size.height}:r=${composition.fps}:d=${duration}[${video}]`);

  composition.layers.forEach((layer, index) => {
    const next = `v${index}`;
    switch (layer.type) {
      case "color": {
        graph.push(`color=c=${ffmpegColor(layer.color)}:s=${size.width}x${size.height}:r=${composition.fps}:d=${duration},format=rgba[c${index}]`);
        graph.push(`[${video}][c${index}]overlay=x=0:y=0:${enable(layer)}[${next}]`);
        break;
      }
      case "image": {
        const stream = addInput(layer.src);
        const fade = layer.opacity < 1 ? `,colorchannelmixer=aa=${num(layer.opacity)}` : "";
        graph.push(`[${stream}:v]scale=${layer.width}:${layer.height},format=rgba${fade}[i${index}]`);
        graph.push(`[${video}][i${index}]overlay=x=${layer.x}:y=${layer.y}:${enable(layer)}[${next}]`);
        break;
      }
      case "text": {
        const textFile = path.join(workDir, `text-${index}.txt`);
        files.push({ path: textFile, content: layer.text });
        const options = [
          `fontfile=${escapeFilterValue(input.fontFile)}`,
          `textfile=${escapeFilterValue(textFile)}`,
          "expansion=none",
          `fontsize=${layer.font_size}`,
          `fontcolor=${ffmpegColor(layer.color)}`,
          `x=${layer.x === "center" ? "(w-text_w)/2" : layer.x}`,
          `y=${layer.y === "center" ? "(h-text_h)/2" : layer.y}`,
          ...(layer.box_color ? ["box=1", `boxcolor=${ffmpegColor(layer.box_color)}`, `boxborderw=${layer.box_padding}`] : []),
          enable(layer),
        ];
        graph.push(`[${video}]drawtext=${options.join(":")}[${next}]`);
        break;
      }
      case "audio": {
        const stream = addInput(layer.src);
        const source = `[${stream}:a]atrim=start=${num(layer.offset)}:duration=${num(layer.end - layer.start)},asetpts=PTS-STARTPTS`;
        graph.push(placeAudio(source, layer, composition.duration, layer.volume, `a${index}`));
        audio.push(`a${index}`);
        return;
      }
      case "tone": {
        const wave = `${num(layer.volume)}*sin(2*PI*${num(layer.frequency)}*t)`;
        const source = `aevalsrc=exprs=${wave}:c=stereo:s=${AUDIO_SAMPLE_RATE}:d=${num(layer.end - layer.start)}`;
        graph.push(placeAudio(source, layer, composition.duration, 1, `a${index}`));
        audio.push(`a${index}`);
        return;
      }
    }
    video = next;
  });
  graph.push(`[${video}]format=yuv420p[vout]`);

  if (audio.length === 0) {
    graph.push(`anullsrc=r=${AUDIO_SAMPLE_RATE}:cl=stereo,atrim=duration=${duration},${AAC_FRAMES}[aout]`);
  } else if (audio.length === 1) {
    graph.push(`[${audio[0]}]${AAC_FRAMES}[aout]`);
  } else {
    graph.push(`${audio.map((label) => `[${label}]`).join("")}amix=inputs=${audio.length}:duration=longest:dropout_transition=0,volume=${audio.length},${AAC_FRAMES}[aout]`);
  }

  const args = [
    "-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y",
    ...inputs,
    "-filter_complex", graph.join(";"),
    "-map", "[vout]", "-map", "[aout]",
    "-c:v", "libx264", "-preset", input.preset ?? "veryfast", "-pix_fmt", "yuv420p",
    "-c:a", "aac", "-b:a", "128k", "-ar", String(AUDIO_SAMPLE_RATE),
    "-movflags", "+faststart",
    "-t", duration,
    "-progress", "pipe:1",
    input.outputPath,
  ];
  return { args, files };
}

/** A source made 48 kHz stereo, set to its volume, delayed to its start and padded to the end. */
function placeAudio(source: string, layer: LayerOf<"audio"> | LayerOf<"tone">, duration: number, volume: number, label: string): string {
  const delayMs = Math.round(layer.start * 1000);
  return [
    source,
    `aformat=sample_fmts=fltp:sample_rates=${AUDIO_SAMPLE_RATE}:channel_layouts=stereo`,
    ...(volume !== 1 ? [`volume=${num(volume)}`] : []),
    ...(delayMs > 0 ? [`adelay=delays=${delayMs}|${delayMs}`] : []),
    "apad",
    `atrim=duration=${num(duration)}[${label}]`,
  ].join(",");
}
