// A flow survives a dead worker (docs/flows.md, "A worker lost mid-run"). Two workers are service
// processes of their own (src/main.ts) on this file's database and Redis, armed to kill themselves
// with SIGKILL right after a node's write committed (src/testing/fault-points.ts), before the
// execution record says the node completed. After the lease runs out another worker retakes the
// flow: it resumes from the saved record (nodes that ended are not run again) and the node that
// was cut off is given back its committed write instead of making it again. Each node runs once,
// is billed once, and the flow completes once.
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { addCredits, creditBalance } from "../src/credits/ledger.js";
import { loadConfig } from "../src/config.js";
import { startService } from "../src/service.js";
import { createFixture, isolatedEnvironment, useService } from "./support/service.js";
import { waitFor } from "./support/wait.js";
import { spawnService, type ServiceProcess } from "./support/service-process.js";

const LEASE_MS = 1500;
const settings = { operationLeaseMs: LEASE_MS, operationSweepMs: 500, operationRequeueAfterMs: 1000, jobScheduleCheckMs: 500, dispatchIntervalMs: 60_000 };
const environment = isolatedEnvironment("flows_retake", { ...settings, runWorkers: false });
const service = useService(environment.overrides);
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;

const workers: ServiceProcess[] = [];

/** A service process running the workers, armed to die at `faultPoint`. */
function startWorker(faultPoint: string): ServiceProcess {
  const worker = spawnService(environment, {
    CUTROOM_WORKERS: "in-process",
    CUTROOM_OPERATION_LEASE_MS: String(LEASE_MS),
    CUTROOM_OPERATION_SWEEP_MS: String(settings.operationSweepMs),
    CUTROOM_OPERATION_REQUEUE_AFTER_MS: String(settings.operationRequeueAfterMs),
    CUTROOM_JOB_SCHEDULE_CHECK_MS: String(settings.jobScheduleCheckMs),
    CUTROOM_DISPATCH_INTERVAL_MS: String(settings.dispatchIntervalMs),
    CUTROOM_FAULT_POINT: faultPoint,
  });
  workers.push(worker);
  return worker;
}

const stops: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const stop of stops) await stop();
  for (const worker of workers) if (worker.process.exitCode === null && worker.process.signalCode === null) worker.process.kill("SIGKILL");
  await Promise.all(workers.map((worker) => worker.exited));
});

const execution = (executionId: string) => prisma().flowExecution.findUniqueOrThrow({ where: { execution_id: executionId } });

/**
 * A chain: a and b each a priced transaction-mode call (1 credit) that creates a video, c names
 * them. The workspace gets exactly the credits of the run (launch fee, a, b): a retaken node whose
 * charge already committed must not be refused for the balance it left.
 */
const chain = (marker: string) => ({
  name: "Two scenes",
  variables: { marker },
  nodes: [
    ...["a", "b"].map((id) => ({ id, type: "action", action: "faceless.parse_script", input: { script: `Scene ${id} of {{vars.marker}}.` } })),
    { id: "c", type: "set", values: { videos: ["{{nodes.a.video_id}}", "{{nodes.b.video_id}}"] } },
  ],
  edges: [
    { source: "a", target: "b" },
    { source: "b", target: "c" },
  ],
});

describe("a flow whose worker is killed mid-run", () => {
  it("is retaken after the lease and completes: every node ran once, billed once (to the last credit), one flow.completed", async () => {
    const { client, workspaceId } = await createFixture(service);
    await prisma().$transaction((tx) => addCredits(tx, { workspaceId, amount: 3, actionType: "grant", description: "test grant" }));
    const marker = randomUUID().slice(0, 8);
    const flow = await client.post("/api/v1/flows", chain(marker));
    expect(flow.status, JSON.stringify(flow.body)).toBe(201);
    const launched = await client.post("/api/v1/actions/flows.execute", { flowId: flow.body.flow_id });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const executionId: string = launched.body.execution_id;
    const allVideos = () => prisma().video.findMany({ where: { workspace_id: workspaceId }, select: { video_id: true, faceless_script: true } });
    const videosOf = async (node: string) => (await allVideos()).filter((video) => video.faceless_script === `Scene ${node} of ${marker}.`).length;

    // Two workers armed to die right after a node's call committed, before the record says so.
    // Whichever takes the flow dies in node a; the other retakes it once the lease ran out: node a
    // gets its committed write back (nothing is written, so no fault there), then it dies in node b.
    const armed = [startWorker("idempotency.after_commit:1"), startWorker("idempotency.after_commit:1")];
    for (const worker of armed) expect(await worker.exited, worker.output()).toBe("SIGKILL");
    expect([await videosOf("a"), await videosOf("b")]).toEqual([1, 1]);
    const row: Row = await execution(executionId);
    expect(row.status).toBe("running");
    expect(row.node_states.a).toMatchObject({ status: "completed", credits_consumed: 1 });
    expect(row.node_states.b.status).not.toBe("completed");
    const nodeA = row.node_states.a as Row;

    // A third worker (in this process: no start-up to wait for) finishes the run from the saved record.
    const third = await startService({ ...loadConfig({}), ...environment.overrides, port: 0, printStartupKey: false, runWorkers: true });
    stops.push(() => third.stop());
    const done: Row = await waitFor("the execution to end", async () => {
      const current = await execution(executionId);
      return current.status === "completed" || current.status === "failed" ? current : undefined;
    }, 60_000);
    expect(done.status, done.error_message ?? "").toBe("completed");
    const operation = await prisma().operation.findFirstOrThrow({ where: { kind: "flow", subject_id: executionId } });
    expect(operation).toMatchObject({ status: "completed", attempts: 3, credits_held: 1, credits_spent: 1 });

    // Node a, completed in the record, did not run again: its state is the one attempt 2 saved.
    expect(done.node_states.a).toEqual(nodeA);
    expect(done.execution_path).toEqual(["a", "b", "c"]);
    for (const node of ["a", "b"]) expect(done.node_states[node]).toMatchObject({ status: "completed", credits_consumed: 1 });
    // The node outputs name the one video each node made.
    const videos = await allVideos();
    expect(videos).toHaveLength(2);
    const made = ["a", "b"].map((node) => videos.find((candidate) => candidate.faceless_script === `Scene ${node} of ${marker}.`)!.video_id);
    expect(["a", "b"].map((node) => (done.context as Row).nodes[node].video_id)).toEqual(made);
    expect((done.context as Row).vars.videos).toEqual(made);

    // Billed once: one ledger row per node, the launch fee once, and the balance says so.
    const ledger = await prisma().creditTransaction.findMany({ where: { workspace_id: workspaceId, action_type: "faceless.parse_script" } });
    expect(ledger).toHaveLength(2);
    expect(done.total_credits_consumed).toBe(3);
    expect(await creditBalance(prisma(), workspaceId)).toBe(0);

    const events = await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId }, select: { type: true } });
    const count = (type: string) => events.filter((event) => event.type === type).length;
    expect(count("flow.completed")).toBe(1);
    expect(count("flow.failed")).toBe(0);
    expect(count("action.completed")).toBe(3); // flows.execute and the two action nodes
    expect(count("action.failed")).toBe(0);
  }, 120_000);

  it("a model-mode node (a hold, the model call, the settlement) cut off after its hold is resumed without a second hold or a second take", async () => {
    // The earlier test's in-process worker would take this flow before an armed one could.
    for (const stop of stops.splice(0)) await stop();
    const { client, workspaceId } = await createFixture(service);
    // The launch fee and one take of one paragraph: exactly what the run costs.
    await prisma().$transaction((tx) => addCredits(tx, { workspaceId, amount: 3, actionType: "grant", description: "test grant" }));
    const script = await client.post("/api/v1/actions/scripts.create", { title: "Voiced by a flow" });
    expect(script.status, JSON.stringify(script.body)).toBe(200);
    const scriptId: string = script.body.script_id;
    expect((await client.post("/api/v1/actions/scripts.insert_paragraph", { script_id: scriptId, text: "The tide comes in twice a day." })).status).toBe(200);
    expect((await client.post("/api/v1/actions/scripts.settings", { script_id: scriptId, default_voice_ref: "local/en-us" })).status).toBe(200);
    const flow = await client.post("/api/v1/flows", { name: "Voice it", nodes: [{ id: "voice", type: "action", action: "scripts.voice", input: { script_id: scriptId } }], edges: [] });
    expect(flow.status, JSON.stringify(flow.body)).toBe(201);
    const launched = await client.post("/api/v1/actions/flows.execute", { flowId: flow.body.flow_id });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const executionId: string = launched.body.execution_id;

    // The worker that takes the flow dies right after the node's hold committed; the other,
    // armed the same way, retakes it once the lease ran out: the hold is handed back, the voice
    // runs, and its final write (a second step) commits past the armed point.
    const armed = [startWorker("idempotency.after_commit:1"), startWorker("idempotency.after_commit:1")];
    const done: Row = await waitFor("the execution to end", async () => {
      const current = await execution(executionId);
      return current.status === "completed" || current.status === "failed" ? current : undefined;
    }, 60_000);
    expect(done.status, done.error_message ?? "").toBe("completed");
    const killed = await Promise.race([Promise.any(armed.map((worker) => worker.exited)), new Promise((resolve) => setTimeout(() => resolve("none"), 1000))]);
    expect(killed).toBe("SIGKILL");
    const operation = await prisma().operation.findFirstOrThrow({ where: { kind: "flow", subject_id: executionId } });
    expect(operation.attempts).toBe(2);

    expect(done.node_states.voice).toMatchObject({ status: "completed", credits_consumed: 2 });
    expect(await prisma().scriptTake.count({ where: { script_id: scriptId } })).toBe(1);
    expect(done.total_credits_consumed).toBe(3);
    expect(await creditBalance(prisma(), workspaceId)).toBe(0);
    const events = await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId }, select: { type: true } });
    expect(events.filter((event) => event.type === "flow.completed")).toHaveLength(1);
    // scripts.create, insert_paragraph, settings, flows.execute, and the node once.
    expect(events.filter((event) => event.type === "action.completed")).toHaveLength(5);
  }, 120_000);
});
