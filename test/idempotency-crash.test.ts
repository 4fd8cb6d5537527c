// Crash-safe idempotency (issue "Reliability and security", 5; docs/guards.md): the service runs
// as a child process that kills itself with SIGKILL at a named point (src/testing/fault-points.ts)
// — right after a commit, mid-bulk inside the transaction of item 28 (27 committed), mid-batch,
// after storing an answer it never sent — and is restarted on the same database and Redis. Each retry
// with the same key and body must leave exactly the records one uninterrupted call would have
// made, and answer what that call would have answered. Then Redis loses its data: every key
// still replays from PostgreSQL.
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../src/db/database.js";
import { createWorkspace } from "../src/workspaces/workspace-service.js";
import { createApiKey } from "../src/auth/key-service.js";
import { isolatedEnvironment } from "./support/service.js";
import { serviceUrl, spawnService } from "./support/service-process.js";
import { startPrivateRedis } from "../src/redis/redis-server.js";
import { loadConfig } from "../src/config.js";
import { startService } from "../src/service.js";
import path from "node:path";
import { waitFor } from "./support/wait.js";

const environment = isolatedEnvironment("idem_crash");

interface Child {
  url: string;
  process: ChildProcess;
  exited: Promise<NodeJS.Signals | null>;
  output: () => string;
}

const children: Child[] = [];

/** Starts the service as its own process, armed to crash at `faultPoint` (if given). */
async function startChild(faultPoint?: string): Promise<Child> {
  const spawned = spawnService(environment, {
    CUTROOM_WORKERS: "off",
    // A dead request's key is free again within a second.
    CUTROOM_IDEMPOTENCY_LOCK_MS: "1000",
    CUTROOM_FAULT_POINT: faultPoint ?? "",
  });
  const started = { ...spawned, url: await serviceUrl(spawned) };
  children.push(started);
  return started;
}

let database: Database;
let key: string;

beforeAll(async () => {
  database = await openDatabase({ databaseUrl: environment.overrides.databaseUrl, dataDir: environment.dataDir });
  const workspaceId = await createWorkspace(database.prisma, "Crash test");
  key = (await createApiKey(database.prisma, { workspaceId, mode: "live", scopes: ["*:*"], rateLimits: { minute: 100_000, hour: 100_000, day: 100_000 } })).secret;
});

afterAll(async () => {
  for (const child of children) if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill();
  await Promise.all(children.map((child) => child.exited));
  await database?.close();
});

interface Answer {
  status: number;
  text: string;
  body: any;
  replayed: boolean;
}

async function send(child: Child, method: string, path: string, idempotencyKey: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${child.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": idempotencyKey },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text), replayed: response.headers.get("idempotent-replayed") === "true" };
}

/** Sends a request the child is armed to die on; it must die (with SIGKILL) without answering. */
async function crashOn(child: Child, method: string, path: string, idempotencyKey: string, body: unknown): Promise<void> {
  await expect(send(child, method, path, idempotencyKey, body)).rejects.toThrow();
  expect(await child.exited, child.output()).toBe("SIGKILL");
}

/** A retry as a client makes it: again while the key is still held by the dead attempt's lock. */
async function retry(child: Child, method: string, path: string, idempotencyKey: string, body: unknown): Promise<Answer> {
  return waitFor(
    "the key to become free",
    async () => {
      const answer = await send(child, method, path, idempotencyKey, body);
      return answer.body.error?.code === "idempotency_in_progress" ? undefined : answer;
    },
    10_000,
    200,
  );
}

const videosNamed = (prefix: string) => database.prisma.video.findMany({ where: { video_name: { startsWith: prefix } }, select: { video_id: true, video_name: true } });

describe("a retry after a crash writes nothing twice", () => {
  it("at every point: after a commit, mid-bulk inside a transaction, mid-batch, after the answer was stored; and after Redis lost its data", async () => {
    const run = randomUUID().slice(0, 8);
    const single = { key: `single-${run}`, body: { video_name: `single-${run}` } };
    const bulk = { key: `bulk-${run}`, body: { create: Array.from({ length: 100 }, (_, index) => ({ video_name: `bulk-${run}-${String(index).padStart(3, "0")}` })) } };
    const batch = {
      key: `batch-${run}`,
      body: { requests: ["a", "b", "c"].map((id) => ({ id, method: "POST", path: "/v1/folders", body: { folder_name: `batch-${run}-${id}` } })) },
    };

    // 1. Killed right after the commit of POST /videos, before any answer.
    let child = await startChild("idempotency.after_commit:1");
    await crashOn(child, "POST", "/api/v1/videos", single.key, single.body);
    const committed = await videosNamed(single.body.video_name);
    expect(committed).toHaveLength(1);

    // Restarted: the retry answers with the video the first attempt wrote, and writes no other.
    child = await startChild("idempotency.before_commit:28");
    const singleAnswer = await retry(child, "POST", "/api/v1/videos", single.key, single.body);
    expect(singleAnswer.status, singleAnswer.text).toBe(201);
    expect(singleAnswer.body).toMatchObject({ object: "video", video_id: committed[0]!.video_id, video_name: single.body.video_name });
    expect(await videosNamed(single.body.video_name)).toHaveLength(1);

    // 2. A bulk call of 100 killed after 27 items committed, inside the 28th item's transaction.
    await crashOn(child, "POST", "/api/v1/videos/bulk", bulk.key, bulk.body);
    const partial = await videosNamed(`bulk-${run}-`);
    expect(partial).toHaveLength(27);
    child = await startChild("idempotency.after_commit:2");
    const bulkAnswer = await retry(child, "POST", "/api/v1/videos/bulk", bulk.key, bulk.body);
    expect(bulkAnswer.status, bulkAnswer.text).toBe(200);
    expect(bulkAnswer.body).toMatchObject({ object: "bulk_result", succeeded: 100, failed: 0 });
    const all = await videosNamed(`bulk-${run}-`);
    expect(all).toHaveLength(100);
    expect(new Set(all.map((video) => video.video_name)).size).toBe(100);
    // The answer names the rows that exist, the first attempt's 27 among them, in item order.
    const byName = new Map(all.map((video) => [video.video_name, video.video_id]));
    expect(bulkAnswer.body.data.map((item: { id: string }) => item.id)).toEqual(bulk.body.create.map((item) => byName.get(item.video_name)));
    for (const video of partial) expect(bulkAnswer.body.data.map((item: { id: string }) => item.id)).toContain(video.video_id);

    // 3. A batch killed after its second member wrote: members' writes are the batch key's steps.
    await crashOn(child, "POST", "/api/v1/batch", batch.key, batch.body);
    expect(await database.prisma.folder.count({ where: { folder_name: { startsWith: `batch-${run}-` } } })).toBe(2);

    // 4. The batch's retry stores its answer and is killed before sending it.
    child = await startChild("idempotency.after_response_stored");
    await crashOn(child, "POST", "/api/v1/batch", batch.key, batch.body);
    child = await startChild();
    const batchAnswer = await retry(child, "POST", "/api/v1/batch", batch.key, batch.body);
    expect(batchAnswer.status, batchAnswer.text).toBe(200);
    expect(batchAnswer.replayed).toBe(true);
    expect(batchAnswer.body.data.map((member: { status: number }) => member.status)).toEqual([201, 201, 201]);
    const folders = await database.prisma.folder.findMany({ where: { folder_name: { startsWith: `batch-${run}-` } }, select: { folder_id: true } });
    expect(folders).toHaveLength(3);
    expect(batchAnswer.body.data.map((member: { body: { folder_id: string } }) => member.body.folder_id).sort()).toEqual(folders.map((folder) => folder.folder_id).sort());

    // 5. Redis loses everything: each key still replays its stored answer, byte for byte.
    const redis = new Redis(environment.overrides.redisUrl!);
    await redis.flushall();
    redis.disconnect();
    const replays = {
      single: await send(child, "POST", "/api/v1/videos", single.key, single.body),
      bulk: await send(child, "POST", "/api/v1/videos/bulk", bulk.key, bulk.body),
      batch: await send(child, "POST", "/api/v1/batch", batch.key, batch.body),
    };
    expect(replays.single.text).toBe(singleAnswer.text);
    expect(replays.bulk.text).toBe(bulkAnswer.text);
    expect(replays.batch.text).toBe(batchAnswer.text);
    for (const replay of Object.values(replays)) expect(replay.replayed).toBe(true);
    expect(await videosNamed(single.body.video_name)).toHaveLength(1);
    expect(await videosNamed(`bulk-${run}-`)).toHaveLength(100);
    expect(await database.prisma.folder.count({ where: { folder_name: { startsWith: `batch-${run}-` } } })).toBe(3);
    // The same key with another body is still a conflict, Redis or not.
    expect((await send(child, "POST", "/api/v1/videos", single.key, { video_name: "other" })).body.error.code).toBe("idempotency_conflict");
  }, 240_000);
});

describe("without Redis at all", () => {
  it("still writes once and replays: PostgreSQL's record stands in for the lock", async () => {
    const redis = await startPrivateRedis(path.join(environment.dataDir, "doomed-redis"));
    const service = await startService({
      ...loadConfig({}),
      port: 0,
      databaseUrl: environment.overrides.databaseUrl,
      redisUrl: redis.url,
      dataDir: environment.dataDir,
      printStartupKey: false,
      runWorkers: false,
      rateLimits: { minute: 100_000, hour: 100_000, day: 100_000, credits_day: 100 },
    });
    try {
      await redis.stop();
      const child = { url: service.url } as Child;
      const body = { video_name: `no-redis-${randomUUID().slice(0, 8)}` };
      const first = await send(child, "POST", "/api/v1/videos", body.video_name, body);
      expect(first.status, first.text).toBe(201);
      const again = await send(child, "POST", "/api/v1/videos", body.video_name, body);
      expect(again.replayed).toBe(true);
      expect(again.text).toBe(first.text);
      expect(await videosNamed(body.video_name)).toHaveLength(1);
    } finally {
      await service.stop();
      await redis.stop();
    }
  });
});
