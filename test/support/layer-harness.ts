// Draws single layers the way the render graph does, without the rest of it: a LayerContext over a
// work directory, the drawer's overlay stream (or in-place filter) put on a plain background by
// ffmpeg, and frames read back as pixels. For tests of the text drawers (src/renders/text/).
import { execFile } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { FFMPEG_PATH } from "../../src/media/binaries.js";
import type { InputOptions, LayerContext, VisualLayerDrawing } from "../../src/renders/graph/layer-drawing.js";

const run = promisify(execFile);

export interface Harness {
  context: LayerContext;
  /** Renders the drawings over a background colour; returns the MP4's path. */
  render(drawings: VisualLayerDrawing[], seconds: number, background?: string): Promise<string>;
}

export async function layerHarness(parent: string, size: { width: number; height: number }, scale: number, options: { fps?: number; media?: Map<string, string> } = {}): Promise<Harness> {
  const workDir = await mkdtemp(path.join(parent, "layers-"));
  const inputs: string[][] = [];
  const files: { path: string; content: string | Uint8Array }[] = [];
  let labels = 0;
  const fps = options.fps ?? 10;
  const context: LayerContext = {
    index: 0,
    size,
    scale,
    px: (value, min = 0) => Math.max(min, Math.round(value * scale)),
    fps,
    version: 2,
    range: { start: 0, end: Number.POSITIVE_INFINITY },
    input(file: string, input: InputOptions = {}) {
      inputs.push([...(input.loopStillFor !== undefined ? ["-loop", "1", "-framerate", String(fps), "-t", String(input.loopStillFor)] : []), "-i", file]);
      return inputs.length - 1;
    },
    media(src) {
      const file = options.media?.get(src);
      if (!file) throw new Error(`no media for ${src}`);
      return file;
    },
    file(name, content) {
      const file = path.join(workDir, name);
      files.push({ path: file, content });
      return file;
    },
    label: (name) => `${name.replace(/[^A-Za-z0-9_]/g, "_")}_${labels++}`,
    workDir,
  };
  return {
    context,
    async render(drawings, seconds, background = "#203040") {
      for (const file of files) await writeFile(file.path, file.content);
      const graph = [`color=c=${background}:s=${size.width}x${size.height}:r=${fps}:d=${seconds}[v0]`];
      let video = "v0";
      drawings.forEach((drawing, index) => {
        const next = `v${index + 1}`;
        const enable = `enable='between(t,${drawing.window.start},${drawing.window.end})'`;
        if (drawing.kind === "overlay") {
          graph.push(...drawing.chains, `[${video}][${drawing.label}]overlay=x=${drawing.box.x}:y=${drawing.box.y}:${enable}[${next}]`);
        } else {
          graph.push(`[${video}]${drawing.filter}[${next}]`);
        }
        video = next;
      });
      const output = path.join(workDir, `out-${Date.now()}.mp4`);
      await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-y", ...inputs.flat(), "-filter_complex", `${graph.join(";")};[${video}]format=yuv420p[out]`, "-map", "[out]", "-t", String(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-crf", "12", output], { cwd: workDir });
      return output;
    },
  };
}

/** One frame as RGB pixels. */
export async function framePixels(file: string, seconds: number, size: { width: number; height: number }): Promise<Buffer> {
  const { stdout } = await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-ss", String(seconds), "-i", file, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], { encoding: "buffer", maxBuffer: size.width * size.height * 3 + 1024 });
  return stdout;
}

/** One frame as a PNG file (to look at). */
export async function framePng(file: string, seconds: number, output: string): Promise<string> {
  await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-y", "-ss", String(seconds), "-i", file, "-frames:v", "1", output]);
  return output;
}
