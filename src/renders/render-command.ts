// The ffmpeg command of a render, built from a parsed composition. Pure: it returns the arguments
// and the text files drawtext reads (written by the caller into workDir), and runs nothing.
//
// Video: a base colour source of the output size, then each layer over the result in order, shown
// between its start and end (`enable=between(t,start,end)`). Images are scaled to their box and
// held (overlay repeats an image's single frame); an image with Ken Burns `motion` becomes a clip
// of the layer's frames through zoompan, and one with fades is looped so the fade has frames to
// work on. Video clips are trimmed from `offset`, moved to their start (setpts) and scaled. Fades
// are `fade` on the alpha channel, so an overlapping next clip that fades in cross-fades (this
// ffmpeg has no xfade). Text is drawtext reading a file, with expansion off, so no character of
// the text is ever interpreted; a question is drawtext lines, the right answer boxed from
// `reveal_at`. Subtitles are an ASS file (src/renders/ass.ts) burned in by the `ass` filter
// (libass) with the font's directory as its fonts directory.
// Audio: every audio and tone layer becomes a 48 kHz stereo stream that is trimmed to its layer's
// length, delayed to its start and padded to the video's duration; the streams are mixed by amix
// and multiplied back by their count. That is amix with normalisation off: amix divides each of n
// equally long inputs by n, and this 2018 build predates amix's `normalize` option. Without any
// audio layer the output still gets a silent track (anullsrc), so every render has audio. The
// mixed track is cut into frames of AAC's 1024 samples before the encoder: this build does not
// size a complex graph's audio frames for the encoder, and a delayed, padded stream (one tone
// that starts late) otherwise arrives in larger frames the encoder refuses.
import type { Composition, LayerOf } from "./composition.js";
import { ffmpegColor, num, enable } from "./filter-values.js";
import { drawQuestionLayer, drawSubtitlesLayer, drawTextLayer, type TextDrawing } from "./text/draw.js";

export { escapeFilterValue } from "./filter-values.js";

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

export function buildRenderCommand(input: RenderCommandInput): RenderCommand {
  const { composition, size, workDir } = input;
  const duration = num(composition.duration);
  const inputs: string[] = [];
  const files: RenderCommand["files"] = [];
  const graph: string[] = [];
  /** Labels of the placed audio streams, mixed at the end. */
  const audio: string[] = [];

  let inputCount = 0;
  const addInput = (src: string, before: string[] = []): number => {
    const file = input.media.get(src);
    if (!file) throw new Error(`No local file for ${src}`);
    inputs.push(...before, "-i", file);
    return inputCount++;
  };
  const text: TextDrawing = { workDir, fontFile: input.fontFile, size, files };

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
        const width = layer.width ?? size.width;
        const height = layer.height ?? size.height;
        const fade = layer.opacity < 1 ? `,colorchannelmixer=aa=${num(layer.opacity)}` : "";
        if (layer.motion) {
          const stream = addInput(layer.src);
          const frames = Math.max(1, Math.round((layer.end - layer.start) * composition.fps));
          graph.push(`[${stream}:v]scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},setsar=1,${kenBurns(layer.motion, frames, width, height, composition.fps)},setpts=PTS-STARTPTS+${num(layer.start)}/TB,format=rgba${fade}${fades(layer)}[i${index}]`);
        } else if (layer.fade_in > 0 || layer.fade_out > 0) {
          // Looped so the fades have frames; the loop ends with the layer.
          const stream = addInput(layer.src, ["-loop", "1", "-framerate", String(composition.fps), "-t", num(layer.end)]);
          graph.push(`[${stream}:v]scale=${width}:${height},format=rgba${fade}${fades(layer)}[i${index}]`);
        } else {
          const stream = addInput(layer.src);
          graph.push(`[${stream}:v]scale=${width}:${height},format=rgba${fade}[i${index}]`);
        }
        graph.push(`[${video}][i${index}]overlay=x=${layer.x}:y=${layer.y}:${enable(layer)}[${next}]`);
        break;
      }
      case "video": {
        const stream = addInput(layer.src);
        const length = num(layer.end - layer.start);
        graph.push(`[${stream}:v]trim=start=${num(layer.offset)}:duration=${length},setpts=PTS-STARTPTS+${num(layer.start)}/TB,fps=${composition.fps},scale=${layer.width ?? size.width}:${layer.height ?? size.height},setsar=1,format=rgba${fades(layer)}[i${index}]`);
        graph.push(`[${video}][i${index}]overlay=x=${layer.x}:y=${layer.y}:${enable(layer)}[${next}]`);
        if (layer.volume > 0) {
          const source = `[${stream}:a]atrim=start=${num(layer.offset)}:duration=${length},asetpts=PTS-STARTPTS`;
          graph.push(placeAudio(source, layer, composition.duration, layer.volume, `a${index}`));
          audio.push(`a${index}`);
        }
        break;
      }
      case "subtitles": {
        graph.push(`[${video}]${drawSubtitlesLayer(layer, index, text)}[${next}]`);
        break;
      }
      case "question": {
        graph.push(`[${video}]${drawQuestionLayer(layer, index, text)}[${next}]`);
        break;
      }
      case "text": {
        graph.push(`[${video}]${drawTextLayer(layer, index, text)}[${next}]`);
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

/** Alpha fades of a visual layer, in the video's time (its frames carry their final timestamps). */
function fades(layer: { start: number; end: number; fade_in: number; fade_out: number }): string {
  return [
    ...(layer.fade_in > 0 ? [`,fade=t=in:st=${num(layer.start)}:d=${num(layer.fade_in)}:alpha=1`] : []),
    ...(layer.fade_out > 0 ? [`,fade=t=out:st=${num(layer.end - layer.fade_out)}:d=${num(layer.fade_out)}:alpha=1`] : []),
  ].join("");
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

/** A source made 48 kHz stereo, set to its volume, delayed to its start and padded to the end. */
function placeAudio(source: string, layer: { start: number },  duration: number, volume: number, label: string): string {
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
