// Runs ffmpeg (spawned directly, never through a shell) and reports its progress. The command is
// expected to carry `-progress pipe:1`: ffmpeg then writes `key=value` lines to stdout, and
// `out_time_us` (or, on older builds, the equally microsecond `out_time_ms`) says how far it got.
import { spawn } from "node:child_process";
import { FFMPEG_PATH } from "./binaries.js";
import { dyingWithParent } from "./child-process.js";

export class FfmpegError extends Error {
  constructor(message: string, readonly exitCode: number | null, readonly stderr: string, readonly timedOut: boolean) {
    super(message);
    this.name = "FfmpegError";
  }
}

export interface RunFfmpegOptions {
  cwd?: string;
  /** The process is killed (SIGKILL) after this long. */
  timeoutMs: number;
  /** Called with the output time reached, in seconds, as ffmpeg reports it. */
  onProgress?(seconds: number): void;
  /** Kills ffmpeg when aborted (the operation's lease was lost). */
  signal?: AbortSignal;
  /** How much of stderr is kept (the end of it); default 4 KiB. */
  stderrBytes?: number;
}

/** How much of stderr is kept for the error message. */
const STDERR_TAIL_BYTES = 4096;

/** Reads an `out_time…` line of -progress output; microseconds for both _us and _ms keys. */
function progressSeconds(line: string): number | undefined {
  const match = /^out_time_(?:us|ms)=(\d+)$/.exec(line.trim());
  return match ? Number(match[1]) / 1_000_000 : undefined;
}

/** Runs ffmpeg; resolves with the end of its stderr (what measuring filters print). */
export function runFfmpeg(args: readonly string[], options: RunFfmpegOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const [command, commandArgs] = dyingWithParent(FFMPEG_PATH, args);
    const child = spawn(command, commandArgs, { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let pending = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeoutMs);
    const abort = () => child.kill("SIGKILL");
    if (options.signal?.aborted) abort();
    options.signal?.addEventListener("abort", abort, { once: true });

    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const seconds = progressSeconds(line);
        if (seconds !== undefined) options.onProgress?.(seconds);
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-(options.stderrBytes ?? STDERR_TAIL_BYTES));
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", abort);
      reject(new FfmpegError(`ffmpeg could not start: ${error.message}`, null, stderr, false));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", abort);
      if (code === 0) return resolve(stderr);
      const reason = timedOut ? `ffmpeg took longer than ${options.timeoutMs} ms and was stopped` : `ffmpeg exited with ${code ?? signal}`;
      reject(new FfmpegError(reason, code, stderr.trim(), timedOut));
    });
  });
}
