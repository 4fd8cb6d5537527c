// Every setting the service reads from the environment, parsed once. Nothing else reads
// process.env, so this file is the list of knobs (documented in docs/configuration.md).
import path from "node:path";

/** The date-like version label of the API (health body, OpenAPI info.version, events). */
export const API_VERSION = "2026-11-01";

export interface Config {
  host: string;
  port: number;
  /** PostgreSQL connection string; when absent the service runs on embedded PGlite. */
  databaseUrl?: string;
  /** Where embedded data (PGlite files, a private Redis) lives. */
  dataDir: string;
  /** Redis connection string; when absent a private redis-server is started if one is on PATH. */
  redisUrl?: string;
  /** Public base URL used in links (doc_url); defaults to the request's own origin. */
  publicBaseUrl?: string;
  /** Mint and print a full-access key for the default workspace on start (development). */
  printStartupKey: boolean;
  logLevel: string;
}

function intFromEnv(value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const parsed = Number.parseInt(value, 10);
  if (!Number.isFinite(parsed)) throw new Error(`Expected an integer, got '${value}'`);
  return parsed;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    host: env.HOST || "127.0.0.1",
    port: intFromEnv(env.PORT, 3000),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.CUTROOM_DATA_DIR || "data"),
    redisUrl: env.REDIS_URL || undefined,
    publicBaseUrl: env.CUTROOM_PUBLIC_BASE_URL?.replace(/\/+$/, "") || undefined,
    printStartupKey: (env.CUTROOM_STARTUP_KEY ?? "on") !== "off",
    logLevel: env.LOG_LEVEL || "info",
  };
}
