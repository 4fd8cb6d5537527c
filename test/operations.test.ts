// Operations (src/operations): long work that outlives its request and survives its worker. Real
// worker processes, real BullMQ on a Redis of this file's own, real PostgreSQL, real ffmpeg.
// - A worker killed with SIGKILL mid-render: its ffmpeg dies with it, its lease runs out, the sweep
//   retakes the operation and another worker finishes it; the credits are held once.
// - A lost worker's operation with no attempts left is failed worker_lost and its hold released.
// - A live lease is left alone; a queued operation whose job Redis lost is queued again.
// - A dead worker's work directory goes when a worker starts, even under a lease not yet run out;
//   one whose worker lives stays.
// - After Redis loses everything, the workers re-create their schedules and the work goes on.
// Short leases and sweeps (set below) stand for the defaults (60 s lease, 20 s sweep).
import type { ChildProcess } from "node:child_process";
import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { newId } from "../src/ids.js";
import { addCredits } from "../src/credits/ledger.js";
import { insertOperation } from "../src/operations/store.js";
import { enqueueOperation } from "../src/operations/worker.js";
import { sweepOperationsJob } from "../src/operations/sweep.js";
import { renderOperation } from "../src/renders/render-operation.js";
import { balanceOf } from "./support/action-calls.js";
import { createFixture, isolatedEnvironment, useService } from "./support/service.js";
import { spawnWorker } from "./support/service-process.js";
import { waitFor } from "./support/wait.js";

const LEASE_MS = 1500;
const SWEEP_MS = 500;
const settings = {
  renderPreset: "ultrafast",
  dispatchIntervalMs: 60_000,
  operationLeaseMs: LEASE_MS,
  operationSweepMs: SWEEP_MS,
  operationRequeueAfterMs: 1000,
  jobScheduleCheckMs: 500,
};
const environment = isolatedEnvironment("operations", { ...settings, runWorkers: false });
const overrides = environment.overrides;
const service = useService(overrides);
const prisma = () => service.service.database.prisma;

const workers: ChildProcess[] = [];

/** A worker process (npm run worker) on this file's database and Redis; resolves once it runs. */
async function startWorkerProcess(): Promise<ChildProcess> {
  const worker = await spawnWorker(environment, {
    CUTROOM_RENDER_PRESET: "ultrafast",
    CUTROOM_OPERATION_LEASE_MS: String(LEASE_MS),
    CUTROOM_OPERATION_SWEEP_MS: String(SWEEP_MS),
    CUTROOM_OPERATION_REQUEUE_AFTER_MS: "1000",
    CUTROOM_JOB_SCHEDULE_CHECK_MS: "500",
    CUTROOM_DISPATCH_INTERVAL_MS: "60000",
  });
  workers.push(worker.process);
  return worker.process;
}

async function stopWorker(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  await exited;
}

afterAll(async () => {
  for (const child of workers) await stopWorker(child, "SIGKILL");
});

/** PIDs of processes whose command line names this operation's work directory. */
async function processesOf(operationId: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of (await readdir("/proc")).filter((name) => /^\d+$/.test(name))) {
    const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (cmdline.includes(`cutroom-op-${operationId}-`) && !cmdline.includes("setpriv")) found.push(Number(entry));
  }
  return found;
}

/** Names of this operation's work directories on this machine. */
async function workDirsOf(operationId: string): Promise<string[]> {
  return (await readdir(os.tmpdir())).filter((name) => name.startsWith(`cutroom-op-${operationId}-`));
}

const enqueue = ((job, payload, options) => service.service.jobs.enqueue(job, payload, options)) as Parameters<typeof enqueueOperation>[0];

/** A funded workspace, a video and a queued render of it with its operation (held credits). */
async function queuedRender(composition: unknown, options: { held?: number; enqueue?: boolean } = {}) {
  const { workspaceId } = await createFixture(service);
  const held = options.held ?? 10;
  await prisma().$transaction((tx) => addCredits(tx, { workspaceId, amount: 100, actionType: "grant" }));
  const videoId = newId("video");
  await prisma().video.create({ data: { video_id: videoId, workspace_id: workspaceId, video_format: "landscape", composition: composition as object } });
  const renderId = newId("render");
  const operation = await prisma().$transaction(async (tx) => {
    await tx.render.create({ data: { render_id: renderId, workspace_id: workspaceId, video_id: videoId, render_status: "queued", credits_consumed: held } });
    // The hold as renders.create takes it: the action's spend, in the same transaction.
    await tx.workspace.update({ where: { workspace_id: workspaceId }, data: { credit_balance: { decrement: held } } });
    return insertOperation(tx, renderOperation, { workspaceId, subjectId: renderId, input: {}, creditsHeld: held, action: "renders.create" });
  });
  if (options.enqueue !== false) await enqueueOperation(enqueue, renderOperation, operation);
  return { workspaceId, renderId, operationId: operation.operation_id };
}

const operation = (operationId: string) => prisma().operation.findUniqueOrThrow({ where: { operation_id: operationId } });
const render = (renderId: string) => prisma().render.findUniqueOrThrow({ where: { render_id: renderId } });

describe("a worker killed mid-render", () => {
  it("takes its ffmpeg with it; the operation is retaken after its lease and finished by another worker", async () => {
    const first = await startWorkerProcess();
    // Long enough to be caught running: 40 s of 1080p frames.
    const { workspaceId, renderId, operationId } = await queuedRender({ duration: 40, fps: 30, layers: [{ type: "text", text: "killed" }] });
    const running = await waitFor("the render to run", async () => {
      const row = await operation(operationId);
      return row.status === "running" && (await processesOf(operationId)).length > 0 ? row : undefined;
    }, 45_000, 100);
    expect(running).toMatchObject({ attempts: 1, lease_owner: expect.stringContaining(`:${first.pid}:`) });
    expect((await render(renderId)).render_status).toBe("rendering");
    // Its work directory names the worker using it.
    const workDirs = await workDirsOf(operationId);
    expect(workDirs).toEqual([expect.stringContaining(`-w${first.pid}-`)]);

    await stopWorker(first, "SIGKILL");
    // The parent-death signal killed ffmpeg at once; nothing keeps a core or the work directory busy.
    await waitFor("ffmpeg to die with its worker", async () => (await processesOf(operationId)).length === 0, 5000, 100);
    expect(await workDirsOf(operationId)).toEqual(workDirs);
    expect((await operation(operationId)).status).toBe("running");

    // Another worker: at its start the dead worker's directory goes, though its operation is still
    // marked running under the dead lease; its sweep then finds the lease run out, queues the
    // operation again, renders it.
    await startWorkerProcess();
    expect(await workDirsOf(operationId)).not.toContain(workDirs[0]);
    const done = await waitFor("the retaken render to finish", async () => {
      const row = await operation(operationId);
      return row.status === "completed" || row.status === "failed" ? row : undefined;
    }, 120_000, 100);
    expect(done, done.error_message ?? "").toMatchObject({ status: "completed", attempts: 2, credits_held: 10, credits_spent: 10, lease_owner: null });
    expect(await render(renderId)).toMatchObject({ render_status: "completed", progress: 100, credits_consumed: 10 });
    // Held once, kept once: no refund, no second charge.
    expect(await balanceOf(service, workspaceId)).toBe(90);
    expect(await prisma().creditTransaction.count({ where: { workspace_id: workspaceId, action_type: "refund" } })).toBe(0);
    const events = (await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId }, orderBy: { seq: "asc" } })).map((event) => event.type);
    // The render's events fire once, however many attempts it took.
    expect(events).toEqual(["render.started", "render.completed"]);
  }, 240_000);
});

describe("the sweep", () => {
  it("fails and refunds an operation whose worker died on its last attempt; leaves a live lease alone", async () => {
    const lost = await queuedRender({ duration: 1, layers: [] }, { enqueue: false });
    const live = await queuedRender({ duration: 1, layers: [] }, { enqueue: false });
    const past = new Date(Date.now() - 60_000);
    await prisma().operation.update({ where: { operation_id: lost.operationId }, data: { status: "running", attempts: 2, lease_owner: "gone:1:x", lease_expires_at: past } });
    await prisma().render.update({ where: { render_id: lost.renderId }, data: { render_status: "rendering" } });
    await prisma().operation.update({ where: { operation_id: live.operationId }, data: { status: "running", attempts: 1, lease_owner: "alive:1:x", lease_expires_at: new Date(Date.now() + 600_000) } });
    await prisma().render.update({ where: { render_id: live.renderId }, data: { render_status: "rendering" } });

    const job = await service.service.jobs.enqueue(sweepOperationsJob, {});
    const worker = await startWorkerProcess();
    await waitFor("the sweep", async () => ["completed", "failed"].includes(await job.getState()), 45_000, 100);

    expect(await operation(lost.operationId)).toMatchObject({ status: "failed", error_code: "worker_lost", credits_spent: 0, lease_owner: null });
    expect(await render(lost.renderId)).toMatchObject({ render_status: "failed", error_code: "worker_lost", credits_consumed: 0 });
    expect(await balanceOf(service, lost.workspaceId)).toBe(100);
    const failed = await prisma().outboxEvent.findFirstOrThrow({ where: { workspace_id: lost.workspaceId, type: "render.failed" } });
    expect(failed.data).toMatchObject({ object: { render_id: lost.renderId, error_code: "worker_lost" }, credits_refunded: 10 });

    expect(await operation(live.operationId)).toMatchObject({ status: "running", lease_owner: "alive:1:x" });
    expect(await balanceOf(service, live.workspaceId)).toBe(90);
    await stopWorker(worker);
  }, 120_000);

  it("after Redis lost everything: schedules come back and a queued operation is queued again and finished", async () => {
    const worker = await startWorkerProcess();
    const redis = new Redis(overrides.redisUrl!);
    try {
      // Nothing queued its job (as if Redis lost it), then Redis loses its data outright.
      const { renderId, operationId } = await queuedRender({ duration: 1, fps: 10, layers: [{ type: "text", text: "healed" }] }, { enqueue: false });
      await redis.flushall();
      expect(await service.service.jobs.queue(sweepOperationsJob.name).getJobSchedulers()).toEqual([]);
      await waitFor("the sweep's schedule to be re-created", async () => (await service.service.jobs.queue(sweepOperationsJob.name).getJobSchedulers()).length === 1, 45_000, 100);
      const done = await waitFor("the lost render to finish", async () => {
        const row = await operation(operationId);
        return row.status === "completed" || row.status === "failed" ? row : undefined;
      }, 60_000, 100);
      expect(done.status, done.error_message ?? "").toBe("completed");
      expect((await render(renderId)).render_status).toBe("completed");
    } finally {
      redis.disconnect();
      await stopWorker(worker);
    }
  }, 120_000);
});

describe("what a dead worker leaves on the machine", () => {
  it("a work directory of an operation no longer running is removed when a worker starts", async () => {
    const { operationId } = await queuedRender({ duration: 1, layers: [] }, { enqueue: false });
    await prisma().operation.update({ where: { operation_id: operationId }, data: { status: "failed" } });
    const left = await mkdtemp(path.join(os.tmpdir(), `cutroom-op-${operationId}-`));
    const worker = await startWorkerProcess();
    await expect(stat(left)).rejects.toMatchObject({ code: "ENOENT" });
    await stopWorker(worker);
  }, 60_000);

  it("a directory whose worker died goes, though its operation still holds a lease; one a live process uses stays", async () => {
    const lease = { status: "running", attempts: 1, lease_expires_at: new Date(Date.now() + 600_000) };
    const dead = await queuedRender({ duration: 1, layers: [] }, { enqueue: false });
    const live = await queuedRender({ duration: 1, layers: [] }, { enqueue: false });
    // A process that has ended: its pid names no live process (pids are not reused this soon).
    const deadPid = spawnSync(process.execPath, ["-e", "0"]).pid;
    await prisma().operation.update({ where: { operation_id: dead.operationId }, data: { ...lease, lease_owner: `${os.hostname()}:${deadPid}:x` } });
    await prisma().operation.update({ where: { operation_id: live.operationId }, data: { ...lease, lease_owner: `${os.hostname()}:${process.pid}:x` } });
    const deadDir = await mkdtemp(path.join(os.tmpdir(), `cutroom-op-${dead.operationId}-w${deadPid}-`));
    // This test process stands for a live worker using its directory.
    const liveDir = await mkdtemp(path.join(os.tmpdir(), `cutroom-op-${live.operationId}-w${process.pid}-`));
    try {
      const worker = await startWorkerProcess();
      await expect(stat(deadDir)).rejects.toMatchObject({ code: "ENOENT" });
      expect((await stat(liveDir)).isDirectory()).toBe(true);
      await stopWorker(worker);
    } finally {
      await rm(liveDir, { recursive: true, force: true });
    }
  }, 60_000);
});
