// The per-process key cache (src/auth/key-cache.ts; docs/scaling.md): two real service processes
// share PostgreSQL and Redis. A key changed through one (revoked, paused, narrowed) stops working
// on the other within a second, though the other had it cached; a change that bypasses the
// service (a direct SQL update, no publish) is what the cache would hide until its TTL.
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../src/db/database.js";
import { createWorkspace } from "../src/workspaces/workspace-service.js";
import { createApiKey } from "../src/auth/key-service.js";
import { isolatedEnvironment } from "./support/service.js";
import { serviceUrl, spawnService } from "./support/service-process.js";
import { waitFor } from "./support/wait.js";

const environment = isolatedEnvironment("key_cache");

interface Child {
  url: string;
  process: ChildProcess;
  exited: Promise<unknown>;
}

const children: Child[] = [];

async function startChild(): Promise<Child> {
  const spawned = spawnService(environment, { CUTROOM_WORKERS: "off" });
  const started = { ...spawned, url: await serviceUrl(spawned) };
  children.push(started);
  return started;
}

let database: Database;
let workspaceId: string;
let admin: string;
let first: Child;
let second: Child;

beforeAll(async () => {
  database = await openDatabase({ databaseUrl: environment.overrides.databaseUrl, dataDir: environment.dataDir });
  workspaceId = await createWorkspace(database.prisma, "Key cache");
  admin = (await createApiKey(database.prisma, { workspaceId, mode: "live", scopes: ["*:*"] })).secret;
  [first, second] = await Promise.all([startChild(), startChild()]);
}, 120_000);

afterAll(async () => {
  for (const child of children) if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill();
  await Promise.all(children.map((child) => child.exited));
  await database?.close();
});

async function call(child: Child, key: string, method = "GET", path = "/api/v1/videos", body?: unknown): Promise<{ status: number; code?: string }> {
  const response = await fetch(`${child.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = (await response.json()) as { error?: { code: string } };
  return { status: response.status, code: parsed.error?.code };
}

/** The first answer `child` gives for `key` other than 200, polled for at most one second. */
async function refusalWithinOneSecond(child: Child, key: string): Promise<{ status: number; code?: string }> {
  return waitFor(
    "the key to be refused",
    async () => {
      const answer = await call(child, key);
      return answer.status === 200 ? undefined : answer;
    },
    1_000,
  );
}

async function newKey(scopes = ["videos:read"]): Promise<{ keyId: string; secret: string }> {
  const created = await createApiKey(database.prisma, { workspaceId, mode: "live", scopes });
  return { keyId: created.keyId, secret: created.secret };
}

describe("keys cached in each process", () => {
  it("a key revoked through one process is refused by the other within a second", async () => {
    const { keyId, secret } = await newKey();
    // Both processes have authenticated (and cached) the key.
    for (const child of [first, second]) expect((await call(child, secret)).status).toBe(200);

    expect((await call(first, admin, "DELETE", `/api/v1/api_keys/${keyId}`)).status).toBe(200);
    expect(await refusalWithinOneSecond(second, secret)).toEqual({ status: 401, code: "key_revoked" });
    expect(await call(first, secret)).toEqual({ status: 401, code: "key_revoked" });
  }, 30_000);

  it("pausing, resuming and narrowing scopes reach the other process too", async () => {
    const { keyId, secret } = await newKey(["videos:read", "folders:read"]);
    for (const child of [first, second]) expect((await call(child, secret, "GET", "/api/v1/folders")).status).toBe(200);

    expect((await call(second, admin, "PATCH", `/api/v1/api_keys/${keyId}`, { paused: true })).status).toBe(200);
    expect(await refusalWithinOneSecond(first, secret)).toEqual({ status: 403, code: "key_paused" });

    expect((await call(second, admin, "PATCH", `/api/v1/api_keys/${keyId}`, { paused: false, scopes: ["videos:read"] })).status).toBe(200);
    expect((await call(first, secret)).status).toBe(200);
    expect(await call(first, secret, "GET", "/api/v1/folders")).toMatchObject({ status: 403, code: "insufficient_scope" });
  }, 30_000);

  it("a rotation ends the old secret everywhere when it has no grace period", async () => {
    const { keyId, secret } = await newKey();
    for (const child of [first, second]) expect((await call(child, secret)).status).toBe(200);
    expect((await call(first, admin, "POST", `/api/v1/api_keys/${keyId}/rotate`, {})).status).toBe(200);
    expect(await refusalWithinOneSecond(second, secret)).toEqual({ status: 401, code: "invalid_credentials" });
  }, 30_000);

  it("is what answers: a change made behind the service's back is not seen until the key is invalidated", async () => {
    const { keyId, secret } = await newKey();
    expect((await call(second, secret)).status).toBe(200);
    // Straight into the database: nothing is published, so the cached copy still answers.
    await database.prisma.apiKey.update({ where: { key_id: keyId }, data: { revoked_at: new Date() } });
    expect((await call(second, secret)).status).toBe(200);
    // A process that never cached it reads the row.
    const third = await startChild();
    expect(await call(third, secret)).toEqual({ status: 401, code: "key_revoked" });
  }, 90_000);
});
