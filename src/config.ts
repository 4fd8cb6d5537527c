// Every setting the service reads from the environment, parsed once. Nothing else reads
// process.env, so this file is the list of knobs (documented in docs/configuration.md).
import { publishingSettings, type PublishingSettings } from "./config/publishing.js";
import path from "node:path";
import { parseProviderSettings, type ProviderSettings } from "./config/providers.js";

/** The date-like version label of the API (health body, OpenAPI info.version, events). */
export const API_VERSION = "2026-11-01";

export interface Config {
  host: string;
  port: number;
  /** PostgreSQL connection string; when absent the service runs on embedded PGlite. */
  databaseUrl?: string;
  /** Where embedded data (PGlite files, a private Redis) lives. */
  dataDir: string;
  /** Count the SQL statements sent (Database.queryCount); for tests that check query counts. */
  countQueries?: boolean;
  /** Redis connection string; when absent a private redis-server is started if one is on PATH. */
  redisUrl?: string;
  /** Public base URL used in links (doc_url); defaults to the request's own origin. */
  publicBaseUrl?: string;
  /** Mint and print a full-access key for the default workspace on start (development). */
  printStartupKey: boolean;
  logLevel: string;
  /** Default rate windows of a key (points per window); a key may override them. */
  rateLimits: RateLimits;
  /** Length of each rate window in seconds (shortened in tests). */
  rateWindowSeconds: Record<RateWindow, number>;
  /** Requests per minute allowed from one IP without a valid key. */
  anonymousPerMinute: number;
  /** Credits granted to the default workspace when it is created. */
  startingCredits: number;
  /** Days request-log entries are kept. */
  requestLogRetentionDays: number;
  /** HTTP server limits: how long a client may take to send its headers, its whole request, and how long an idle keep-alive connection stays open; how many connections at once (docs/security.md). */
  http: HttpServerLimits;
  /** How long an idempotent request holds its key's lock in Redis without renewing it (it renews while it runs): how soon a crashed request's key is free again. */
  idempotencyLockMs: number;
  /** Test only: a crash point (src/testing/fault-points.ts) the process kills itself at. */
  faultPoint?: string;
  /** Run the job workers in this process (npm start in development; npm run worker in production). */
  runWorkers: boolean;
  /** Hosts or CIDRs reachable by outbound fetches even when private, loopback or plain http. */
  outboundAllow: string[];
  /** Seconds between webhook delivery attempts; attempts = gaps + 1 (docs/webhooks.md). */
  webhookRetrySeconds: number[];
  /** How long one delivery attempt may take. */
  webhookTimeoutMs: number;
  /** How often the dispatcher looks for new events and due deliveries. */
  dispatchIntervalMs: number;
  /** Where output files live: `local` (under storageDir) or `s3` (an S3-compatible store). */
  storage: "local" | "s3";
  /** Root of local storage; when absent, `<dataDir>/storage`. */
  storageDir?: string;
  /** The S3-compatible store, when storage is `s3` (path-style addressing). */
  s3?: S3Settings;
  /** Secret of signed file URLs; when absent one is generated once and kept in service_settings. */
  fileSigningSecret?: string;
  /** The server keyring (`id:hex64,…`, current first); when absent, `<dataDir>/server-keys` (src/config/keyring.ts). */
  serverKeys?: string;
  /** Lifetime of the signed output_url a finished render carries (docs/renders.md). */
  fileUrlTtlSeconds: number;
  /** x264 preset of renders (ultrafast ... veryslow). */
  renderPreset: string;
  /** Largest media file (image, audio) a render downloads. */
  renderMediaMaxBytes: number;
  /** How long one media download may take. */
  renderMediaTimeoutMs: number;
  /** How long ffmpeg may run for one render before it is stopped. */
  renderTimeoutMs: number;
  /**
   * A video render of a composition longer than this many seconds is split into segments of this
   * length, each its own job (docs/renders.md, "Split rendering"); 0 never splits.
   */
  renderSplitSeconds: number;
  /** How long a worker holds a running operation without renewing its lease (docs/operations.md). */
  operationLeaseMs: number;
  /** How often the sweep retakes operations whose lease ran out and re-queues lost jobs. */
  operationSweepMs: number;
  /** A queued operation untouched this long has its job queued again (a no-op when it still exists). */
  operationRequeueAfterMs: number;
  /** How often a worker process re-creates the schedules of repeating jobs (lost with Redis's data). */
  jobScheduleCheckMs: number;
  /** Jobs run at once per operation queue (render, image, music, ...); others run 4. */
  queueConcurrency: Record<string, number>;
  /** At most `max` jobs started per `durationMs` on a queue (a provider's rate limit). */
  queueLimits: Record<string, { max: number; durationMs: number }>;
  /** Check every action answer against its declared output: on except in production. */
  checkActionOutputs: boolean;
  /** AI models and local media tools: keys, the model of each capability, call limits (docs/providers.md). */
  providers: ProviderSettings;
  /** Connected accounts' key, platform APIs, the publishing sweep (docs/publishing.md). */
  publishing: PublishingSettings;
}

export interface HttpServerLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
}

export interface S3Settings {
  /** e.g. http://127.0.0.1:9000; absent means the AWS endpoint of the region. */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** About two hours in all: 30 s, 2 min, 5 min, 15 min, 30 min, 1 h (each ±20% jitter). */
const DEFAULT_WEBHOOK_RETRY_SECONDS = [30, 120, 300, 900, 1800, 3600];

function numberList(value: string | undefined, fallback: number[]): number[] {
  if (!value) return fallback;
  const list = value.split(",").map((item) => Number(item.trim()));
  if (list.some((item) => !Number.isFinite(item) || item < 0)) throw new Error(`Bad number list '${value}'`);
  return list;
}

export const RATE_WINDOWS = ["minute", "hour", "day", "credits_day"] as const;
export type RateWindow = (typeof RATE_WINDOWS)[number];
export type RateLimits = Record<RateWindow, number>;

const DEFAULT_RATE_LIMITS: RateLimits = { minute: 600, hour: 10_000, day: 100_000, credits_day: 500 };
const DEFAULT_WINDOW_SECONDS: Record<RateWindow, number> = { minute: 60, hour: 3600, day: 86_400, credits_day: 86_400 };

/** Parses `minute=2,hour=5` into overrides of a window table. */
function windowTable(value: string | undefined, defaults: Record<RateWindow, number>): Record<RateWindow, number> {
  const table = { ...defaults };
  for (const entry of (value ?? "").split(",").map((item) => item.trim()).filter(Boolean)) {
    const [name, amount] = entry.split("=");
    if (!RATE_WINDOWS.includes(name as RateWindow) || !amount || !/^\d+$/.test(amount)) throw new Error(`Bad rate window setting '${entry}'`);
    table[name as RateWindow] = Number(amount);
  }
  return table;
}

/** Parses `render=2,image=4` into per-queue numbers. */
function queueNumbers(value: string | undefined, defaults: Record<string, number>): Record<string, number> {
  const table = { ...defaults };
  for (const entry of (value ?? "").split(",").map((item) => item.trim()).filter(Boolean)) {
    const match = /^([a-z_]+)=(\d+)$/.exec(entry);
    if (!match || Number(match[2]) < 1) throw new Error(`Bad queue setting '${entry}' (expected <queue>=<whole number ≥ 1>)`);
    table[match[1]!] = Number(match[2]);
  }
  return table;
}

/** Parses `image=10/60` (at most 10 jobs started per 60 seconds) into per-queue limiters. */
function queueLimits(value: string | undefined): Record<string, { max: number; durationMs: number }> {
  const table: Record<string, { max: number; durationMs: number }> = {};
  for (const entry of (value ?? "").split(",").map((item) => item.trim()).filter(Boolean)) {
    const match = /^([a-z_]+)=(\d+)\/(\d+)$/.exec(entry);
    if (!match || Number(match[2]) < 1 || Number(match[3]) < 1) throw new Error(`Bad queue limit '${entry}' (expected <queue>=<jobs>/<seconds>)`);
    table[match[1]!] = { max: Number(match[2]), durationMs: Number(match[3]) * 1000 };
  }
  return table;
}

function intFromEnv(value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const parsed = Number.parseInt(value, 10);
  if (!Number.isFinite(parsed)) throw new Error(`Expected an integer, got '${value}'`);
  return parsed;
}

/** A non-negative number of seconds (decimals allowed). */
function secondsFromEnv(value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`Expected a number of seconds, got '${value}'`);
  return parsed;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const storage = storageKind(env.CUTROOM_STORAGE);
  return {
    host: env.HOST || "127.0.0.1",
    port: intFromEnv(env.PORT, 3000),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.CUTROOM_DATA_DIR || "data"),
    redisUrl: env.REDIS_URL || undefined,
    publicBaseUrl: env.CUTROOM_PUBLIC_BASE_URL?.replace(/\/+$/, "") || undefined,
    printStartupKey: (env.CUTROOM_STARTUP_KEY ?? "on") !== "off",
    logLevel: env.LOG_LEVEL || "info",
    rateLimits: windowTable(env.CUTROOM_RATE_LIMITS, DEFAULT_RATE_LIMITS),
    rateWindowSeconds: windowTable(env.CUTROOM_RATE_WINDOW_SECONDS, DEFAULT_WINDOW_SECONDS),
    anonymousPerMinute: intFromEnv(env.CUTROOM_ANONYMOUS_PER_MINUTE, 120),
    startingCredits: intFromEnv(env.CUTROOM_STARTING_CREDITS, 1000),
    requestLogRetentionDays: intFromEnv(env.CUTROOM_REQUEST_LOG_RETENTION_DAYS, 30),
    http: httpServerLimits(env),
    idempotencyLockMs: intFromEnv(env.CUTROOM_IDEMPOTENCY_LOCK_MS, 10_000),
    faultPoint: env.CUTROOM_FAULT_POINT || undefined,
    runWorkers: (env.CUTROOM_WORKERS ?? "in-process") !== "off",
    outboundAllow: (env.CUTROOM_OUTBOUND_ALLOW ?? "").split(",").map((entry) => entry.trim()).filter(Boolean),
    webhookRetrySeconds: numberList(env.CUTROOM_WEBHOOK_RETRY_SECONDS, DEFAULT_WEBHOOK_RETRY_SECONDS),
    webhookTimeoutMs: intFromEnv(env.CUTROOM_WEBHOOK_TIMEOUT_MS, 10_000),
    dispatchIntervalMs: intFromEnv(env.CUTROOM_DISPATCH_INTERVAL_MS, 500),
    storage,
    storageDir: env.CUTROOM_STORAGE_DIR ? path.resolve(env.CUTROOM_STORAGE_DIR) : undefined,
    s3: storage === "s3" ? s3Settings(env) : undefined,
    fileSigningSecret: env.CUTROOM_FILE_SIGNING_SECRET || undefined,
    serverKeys: env.CUTROOM_SERVER_KEYS || undefined,
    fileUrlTtlSeconds: intFromEnv(env.CUTROOM_FILE_URL_TTL_SECONDS, 7 * 86_400),
    renderPreset: env.CUTROOM_RENDER_PRESET || "veryfast",
    renderMediaMaxBytes: intFromEnv(env.CUTROOM_RENDER_MEDIA_MAX_BYTES, 50 * 1024 * 1024),
    renderMediaTimeoutMs: intFromEnv(env.CUTROOM_RENDER_MEDIA_TIMEOUT_MS, 30_000),
    renderTimeoutMs: intFromEnv(env.CUTROOM_RENDER_TIMEOUT_MS, 30 * 60_000),
    renderSplitSeconds: secondsFromEnv(env.CUTROOM_RENDER_SPLIT_SECONDS, 20),
    operationLeaseMs: intFromEnv(env.CUTROOM_OPERATION_LEASE_MS, 60_000),
    operationSweepMs: intFromEnv(env.CUTROOM_OPERATION_SWEEP_MS, 20_000),
    operationRequeueAfterMs: intFromEnv(env.CUTROOM_OPERATION_REQUEUE_AFTER_MS, 30_000),
    jobScheduleCheckMs: intFromEnv(env.CUTROOM_JOB_SCHEDULE_CHECK_MS, 60_000),
    // ffmpeg takes a core per render: two at once on a small machine.
    queueConcurrency: queueNumbers(env.CUTROOM_QUEUE_CONCURRENCY, { render: 2, render_segment: 2 }),
    queueLimits: queueLimits(env.CUTROOM_QUEUE_LIMITS),
    checkActionOutputs: (env.CUTROOM_CHECK_OUTPUTS ?? (env.NODE_ENV === "production" ? "off" : "on")) !== "off",
    providers: parseProviderSettings(env),
    publishing: publishingSettings(env),
  };
}

function httpServerLimits(env: NodeJS.ProcessEnv): HttpServerLimits {
  const limits: HttpServerLimits = {
    // Slow-header (slowloris) clients are cut off well before Node's 60 s default.
    headersTimeoutMs: intFromEnv(env.CUTROOM_HTTP_HEADERS_TIMEOUT_MS, 10_000),
    // The whole request, 5 MiB body included; Node's default is 300 s.
    requestTimeoutMs: intFromEnv(env.CUTROOM_HTTP_REQUEST_TIMEOUT_MS, 30_000),
    // Longer than the 60 s idle timeout of common load balancers, so they close first.
    keepAliveTimeoutMs: intFromEnv(env.CUTROOM_HTTP_KEEP_ALIVE_TIMEOUT_MS, 65_000),
    maxConnections: intFromEnv(env.CUTROOM_HTTP_MAX_CONNECTIONS, 1024),
  };
  if (Object.values(limits).some((value) => value <= 0)) throw new Error("CUTROOM_HTTP_* settings must be positive");
  // Node refuses a headers timeout longer than the request timeout.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) throw new Error("CUTROOM_HTTP_HEADERS_TIMEOUT_MS may not exceed CUTROOM_HTTP_REQUEST_TIMEOUT_MS");
  return limits;
}

function storageKind(value: string | undefined): Config["storage"] {
  const kind = value || "local";
  if (kind !== "local" && kind !== "s3") throw new Error(`CUTROOM_STORAGE must be local or s3, got '${kind}'`);
  return kind;
}

function s3Settings(env: NodeJS.ProcessEnv): S3Settings {
  const missing = ["CUTROOM_S3_BUCKET", "CUTROOM_S3_ACCESS_KEY_ID", "CUTROOM_S3_SECRET_ACCESS_KEY"].filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`CUTROOM_STORAGE=s3 needs ${missing.join(", ")}`);
  return {
    endpoint: env.CUTROOM_S3_ENDPOINT?.replace(/\/+$/, "") || undefined,
    bucket: env.CUTROOM_S3_BUCKET!,
    region: env.CUTROOM_S3_REGION || "us-east-1",
    accessKeyId: env.CUTROOM_S3_ACCESS_KEY_ID!,
    secretAccessKey: env.CUTROOM_S3_SECRET_ACCESS_KEY!,
  };
}
