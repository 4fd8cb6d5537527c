// Starts the real service (HTTP on a free port, real PostgreSQL and Redis) for a test file, and
// builds fresh fixtures (a new workspace and key per test) so tests never share records.
import { afterAll, beforeAll, inject } from "vitest";
import { rm } from "node:fs/promises";
import { createScratchDatabase, DEFAULT_ADMIN_URL, type ScratchDatabase } from "../../src/db/scratch-database.js";
import { startPrivateRedis, type RedisHandle } from "../../src/redis/redis-server.js";
import path from "node:path";
import os from "node:os";
import { loadConfig, type Config } from "../../src/config.js";
import { startService, type RunningService } from "../../src/service.js";
import { createApiKey } from "../../src/auth/key-service.js";
import { createWorkspace } from "../../src/workspaces/workspace-service.js";
import type { NewKeyOptions } from "../../src/auth/key-service.js";
import { startProviderStandIn, type ProviderStandIn } from "./provider-standin/index.js";

export interface TestService {
  readonly url: string;
  readonly service: RunningService;
}

export interface IsolatedEnvironment {
  /** Configuration for useService: the settings given, plus this file's database, Redis and data dir (filled in before the service starts). */
  overrides: Partial<Config>;
  dataDir: string;
}

/**
 * A database, a Redis and a data directory of this test file's own, for files that run workers
 * (their dispatchers and job queues would otherwise take other files' events and jobs). Call it
 * before useService(overrides): its clean-up then runs after the service has stopped.
 */
export function isolatedEnvironment(name: string, settings: Partial<Config> = {}): IsolatedEnvironment {
  const dataDir = path.join(os.tmpdir(), `cutroom-${name}-test-${process.pid}-${Date.now().toString(36)}`);
  const overrides: Partial<Config> = { ...settings, dataDir };
  let scratch: ScratchDatabase | undefined;
  let redis: RedisHandle | undefined;
  beforeAll(async () => {
    scratch = await createScratchDatabase(`cutroom_${name.replace(/[^a-z0-9]/g, "_")}`, process.env.TEST_DATABASE_ADMIN_URL ?? DEFAULT_ADMIN_URL);
    redis = await startPrivateRedis(dataDir);
    overrides.databaseUrl = scratch.url;
    overrides.redisUrl = redis.url;
  });
  afterAll(async () => {
    await redis?.stop();
    await scratch?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { overrides, dataDir };
}

/** Starts one service for the current test file; `overrides` adjust its configuration. */
export function useService(overrides: Partial<Config> = {}): TestService {
  let running: RunningService | undefined;
  beforeAll(async () => {
    running = await startService({
      ...loadConfig({}),
      port: 0,
      databaseUrl: inject("databaseUrl"),
      redisUrl: inject("redisUrl"),
      dataDir: path.join(os.tmpdir(), "cutroom-test-data"),
      printStartupKey: false,
      runWorkers: false,
      // Every file of the run shares one Redis and calls from one address (127.0.0.1), so the
      // address's anonymous window would count the signed-link downloads of files running in
      // parallel. Files that test that window set their own limit (and fresh addresses).
      anonymousPerMinute: 100_000,
      ...overrides,
    });
  });
  afterAll(async () => {
    await running?.stop();
  });
  return {
    get url() {
      if (!running) throw new Error("service not started");
      return running.url;
    },
    get service() {
      if (!running) throw new Error("service not started");
      return running;
    },
  };
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (for invalid JSON tests). */
  rawBody?: string;
  headers?: Record<string, string>;
  key?: string | null;
}

export class Client {
  constructor(private readonly baseUrl: string, readonly key?: string) {}

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const key = options.key === undefined ? this.key : options.key;
    const headers: Record<string, string> = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...options.headers };
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, options?: RequestOptions) { return this.request<T>("GET", path, options); }
  post<T = any>(path: string, body?: unknown, options?: RequestOptions) { return this.request<T>("POST", path, { ...options, body }); }
  patch<T = any>(path: string, body?: unknown, options?: RequestOptions) { return this.request<T>("PATCH", path, { ...options, body }); }
  delete<T = any>(path: string, options?: RequestOptions) { return this.request<T>("DELETE", path, options); }

  /** POST /graphql; returns the GraphQL response body. */
  graphql<T = any>(query: string, variables?: Record<string, unknown>, options?: RequestOptions) {
    return this.request<T>("POST", "/graphql", { ...options, body: { query, variables } });
  }
}

export interface Fixture {
  workspaceId: string;
  keyId: string;
  key: string;
  client: Client;
  /** Another key in the same workspace. */
  newKey(options?: Partial<Omit<NewKeyOptions, "workspaceId">>): Promise<{ keyId: string; key: string; client: Client }>;
}

/** A fresh workspace with one key (full access unless scopes are given). */
export async function createFixture(
  test: TestService,
  options: Partial<Omit<NewKeyOptions, "workspaceId">> = {},
): Promise<Fixture> {
  const prisma = test.service.database.prisma;
  const workspaceId = await createWorkspace(prisma, "Test workspace");
  const newKey = async (keyOptions: Partial<Omit<NewKeyOptions, "workspaceId">> = {}) => {
    const created = await createApiKey(prisma, { mode: "live", scopes: ["*:*"], ...keyOptions, workspaceId });
    return { keyId: created.keyId, key: created.secret, client: new Client(test.url, created.secret) };
  };
  const first = await newKey(options);
  return { workspaceId, keyId: first.keyId, key: first.key, client: first.client, newKey };
}

export interface StandInHandle {
  readonly standIn: ProviderStandIn;
}

/**
 * The provider stand-in for this test file, with every provider of the service pointed at it.
 * Call it before useService(overrides): the service then starts with the stand-in's settings.
 */
export function useStandIn(overrides: Partial<Config>, extraEnv: Record<string, string> = {}): StandInHandle {
  let standIn: ProviderStandIn | undefined;
  beforeAll(async () => {
    standIn = await startProviderStandIn();
    const config = loadConfig({ ...standIn.env(), ...extraEnv });
    overrides.providers = config.providers;
    overrides.outboundAllow = [...new Set([...(overrides.outboundAllow ?? []), ...config.outboundAllow])];
  });
  afterAll(async () => {
    await standIn?.close();
  });
  return {
    get standIn() {
      if (!standIn) throw new Error("stand-in not started");
      return standIn;
    },
  };
}
