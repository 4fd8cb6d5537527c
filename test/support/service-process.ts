// The service as a process of its own (src/main.ts) on a test file's database and Redis: for tests
// that kill it (crash points, dead workers) or run several side by side.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { IsolatedEnvironment } from "./service.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface ServiceProcess {
  process: ChildProcess;
  /** Resolves with the signal that ended it (null for a normal exit). */
  exited: Promise<NodeJS.Signals | null>;
  output: () => string;
}

/** Spawns the service; `env` adds or overrides settings (CUTROOM_WORKERS, CUTROOM_FAULT_POINT, ...). */
export function spawnService(environment: IsolatedEnvironment, env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: "0",
      DATABASE_URL: environment.overrides.databaseUrl,
      REDIS_URL: environment.overrides.redisUrl,
      CUTROOM_DATA_DIR: environment.dataDir,
      CUTROOM_STARTUP_KEY: "off",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
  return { process: child, exited, output: () => output };
}

/** The URL the spawned service listens on, once it says so. */
export function serviceUrl(started: ServiceProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start:\n${started.output()}`)), 60_000);
    const look = () => {
      const match = /running at (http:\/\/\S+)/.exec(started.output());
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    started.process.stdout!.on("data", look);
    look();
    // `exited` only ever resolves; rejecting after the url was found is a no-op.
    void started.exited.then(() => reject(new Error(`the service exited while starting:\n${started.output()}`)));
  });
}

/**
 * A worker process (src/worker.ts) on a test file's database, Redis and data directory; resolves
 * once it runs. `env` adds or overrides settings (leases, sweeps, CUTROOM_RENDER_SPLIT_SECONDS, ...).
 */
export async function spawnWorker(environment: IsolatedEnvironment, env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/worker.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: environment.overrides.databaseUrl,
      REDIS_URL: environment.overrides.redisUrl,
      CUTROOM_DATA_DIR: environment.dataDir,
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the worker did not start:\n${output}`)), 120_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Cutroom worker running")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    void exited.then(() => reject(new Error(`the worker exited while starting:\n${output}`)));
  });
  return { process: child, exited, output: () => output };
}
