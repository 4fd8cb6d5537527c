// Jobs (src/jobs/queues.ts, src/maintenance/prune-job.ts): a service running its BullMQ workers
// prunes request-log entries older than requestLogRetentionDays, and only those. This file runs
// workers, so it gets a database and a Redis of its own: its workers (and the webhook dispatcher
// they start) must not take jobs or outbox events that other test files' services are waiting for,
// and its prune must not touch their rows.
import { describe, expect, it } from "vitest";
import type { Job } from "bullmq";
import { runInRequestContext } from "../src/context/request-context.js";
import { pruneJob } from "../src/maintenance/prune-job.js";
import { newId } from "../src/ids.js";
import { createFixture, isolatedEnvironment, useService } from "./support/service.js";
import { waitForStatus } from "./support/wait.js";

const RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;
const environment = isolatedEnvironment("jobs", { runWorkers: true, requestLogRetentionDays: RETENTION_DAYS });
const overrides = environment.overrides;
const service = useService(overrides);

const prisma = () => service.service.database.prisma;

/** Waits for a job to finish (polling its state) and returns it as finished. */
async function finished(job: Job, timeoutMs = 20_000): Promise<Job> {
  await waitForStatus(`job ${job.id}`, () => job.getState(), (state) => state, ["completed", "failed"], timeoutMs);
  const done = await service.service.jobs.queue(pruneJob.name).getJob(job.id!);
  expect(done, "finished job is kept").toBeDefined();
  return done!;
}

async function insertLogs(workspaceId: string, ageDays: number[]): Promise<string[]> {
  const rows = ageDays.map((days) => ({
    logged_request_id: newId("request"),
    workspace_id: workspaceId,
    key_id: null,
    method: "GET",
    route: "/api/v1/videos",
    path: `/api/v1/videos?age=${days}`,
    status: 200,
    duration_ms: 1.5,
    created_at: new Date(Date.now() - days * DAY_MS),
  }));
  await prisma().requestLog.createMany({ data: rows });
  return rows.map((row) => row.logged_request_id);
}

describe("maintenance.prune", () => {
  it(`deletes request-log entries older than ${RETENTION_DAYS} days and keeps the younger ones`, async () => {
    const { workspaceId, client } = await createFixture(service);
    const old = await insertLogs(workspaceId, [RETENTION_DAYS + 1, 90, 400]);
    const young = await insertLogs(workspaceId, [RETENTION_DAYS - 1, 1, 0]);
    // A real request's entry, written by the service itself.
    const live = await client.get("/api/v1/videos");
    expect(live.status).toBe(200);
    await service.service.guards.requestLog.flush();

    const job = await finished(await service.service.jobs.enqueue(pruneJob, {}));
    expect(job.failedReason, job.failedReason).toBeUndefined();
    expect(await job.getState()).toBe("completed");
    expect(job.returnvalue).toMatchObject({ request_logs_deleted: expect.any(Number), cutoff: expect.any(String) });
    const cutoff = new Date(job.returnvalue.cutoff).getTime();
    expect(Math.abs(cutoff - (Date.now() - RETENTION_DAYS * DAY_MS))).toBeLessThan(60_000);

    const remaining = await prisma().requestLog.findMany({ where: { workspace_id: workspaceId }, select: { logged_request_id: true } });
    const ids = new Set(remaining.map((row) => row.logged_request_id));
    for (const id of old) expect(ids.has(id), `old entry ${id} pruned`).toBe(false);
    for (const id of young) expect(ids.has(id), `young entry ${id} kept`).toBe(true);
    expect(ids.has(live.headers.get("x-request-id")!)).toBe(true);
    expect(remaining).toHaveLength(young.length + 1);

    // Running it again finds nothing more to delete.
    const again = await finished(await service.service.jobs.enqueue(pruneJob, {}));
    expect(again.returnvalue.request_logs_deleted).toBe(0);
    expect(await prisma().requestLog.count({ where: { workspace_id: workspaceId } })).toBe(young.length + 1);
  });

  it("validates the payload when enqueued, and carries the request id it was enqueued from", async () => {
    await expect(service.service.jobs.enqueue(pruneJob, { unexpected: true } as never)).rejects.toThrow();
    const job = await runInRequestContext({ requestId: "req_jobstest000000000000000", baseUrl: service.url }, () => service.service.jobs.enqueue(pruneJob, {}));
    expect(job.data).toEqual({ request_id: "req_jobstest000000000000000" });
    expect((await finished(job)).finishedOn).toBeGreaterThan(0);
  });
});
