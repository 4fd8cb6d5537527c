// Runs a local media tool (ffmpeg) for a provider call: spawned directly, never through a shell,
// killed when the call's signal aborts (its time limit or the caller), and reported as a
// local_failure with no output of the tool in the message (stderr may name scratch paths).
import { spawn } from "node:child_process";
import { ProviderAnswerError } from "../errors.js";

const STDERR_TAIL_BYTES = 2048;

export function runTool(command: string, args: readonly string[], options: { signal: AbortSignal; cwd?: string; what: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) return reject(options.signal.reason);
    const child = spawn(command, args, { cwd: options.cwd, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    const onAbort = () => child.kill("SIGKILL");
    options.signal.addEventListener("abort", onAbort, { once: true });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_BYTES);
    });
    child.on("error", () => {
      options.signal.removeEventListener("abort", onAbort);
      reject(new ProviderAnswerError(`${options.what} could not start`, "local_failure"));
    });
    child.on("close", (code) => {
      options.signal.removeEventListener("abort", onAbort);
      if (options.signal.aborted) return reject(options.signal.reason);
      if (code === 0) return resolve();
      reject(Object.assign(new ProviderAnswerError(`${options.what} failed`, "local_failure"), { stderr }));
    });
  });
}
