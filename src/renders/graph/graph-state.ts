// What a render graph collects while it is built: ffmpeg inputs, the files they read, filter chains
// and labels. One instance per build; layer drawers reach it through their LayerContext.
import path from "node:path";
import type { InputOptions } from "./layer-drawing.js";
import { num } from "../filter-values.js";

export class GraphState {
  readonly inputs: string[] = [];
  readonly files: { path: string; content: string | Uint8Array }[] = [];
  readonly chains: string[] = [];
  private inputCount = 0;
  private readonly used = new Set<string>();

  constructor(readonly workDir: string, private readonly fps: number) {}

  input(file: string, options: InputOptions = {}): number {
    if (options.loopStillFor !== undefined) this.inputs.push("-loop", "1", "-framerate", String(this.fps), "-t", num(options.loopStillFor));
    if (options.loop) this.inputs.push("-stream_loop", "-1");
    if (options.seek !== undefined && options.seek > 0) this.inputs.push("-ss", num(options.seek));
    this.inputs.push("-i", file);
    return this.inputCount++;
  }

  file(name: string, content: string | Uint8Array): string {
    const file = path.join(this.workDir, name.replace(/[^\w.-]/g, "_"));
    this.files.push({ path: file, content });
    return file;
  }

  label(name: string): string {
    const base = name.replace(/\W/g, "_");
    let label = base;
    for (let n = 2; this.used.has(label); n++) label = `${base}_${n}`;
    this.used.add(label);
    return label;
  }

  push(...chains: string[]): void {
    this.chains.push(...chains);
  }
}
