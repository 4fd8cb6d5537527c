// Flows (docs/flows.md): the graph checks of flows create and update, and flows.execute end to end
// through real BullMQ workers and PostgreSQL — every action node a direct call of its action as the
// launching key (scopes, credits, events), independent branches in parallel, flow.completed and
// flow.failed. This file runs workers, so it has a database and a Redis of its own.
import { describe, expect, it } from "vitest";
import { creditBalance } from "../src/credits/ledger.js";
import { funded } from "./support/action-calls.js";
import { createFixture, isolatedEnvironment, useService, type Client } from "./support/service.js";
import { waitFor } from "./support/wait.js";

const environment = isolatedEnvironment("flows", { runWorkers: true, renderPreset: "ultrafast", dispatchIntervalMs: 60_000 });
const service = useService(environment.overrides);
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;

const COMPOSITION = { duration: 1, fps: 10, layers: [{ type: "text", text: "Hi" }] };

const execute = (client: Client, flowId: string, variables?: Record<string, unknown>) => client.post("/api/v1/actions/flows.execute", { flowId, ...(variables && { variables }) });

async function finished(executionId: string): Promise<Row> {
  return waitFor(`execution ${executionId} to end`, async () => {
    const row = await prisma().flowExecution.findUnique({ where: { execution_id: executionId } });
    return row && (row.status === "completed" || row.status === "failed") ? (row) : undefined;
  }, 60_000);
}

const events = (workspaceId: string, prefix: string) =>
  prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type: { startsWith: prefix } }, orderBy: { seq: "asc" } });

/** An action, a condition on its output, a second action on the true branch; a transform beside them. */
const THREE_NODE_FLOW = {
  name: "Make and render",
  variables: { title: "Default title" },
  nodes: [
    { id: "make", type: "action", action: "videos.create", input: { video_name: "{{vars.title}}", composition: COMPOSITION } },
    { id: "check", type: "condition", if: { left: "{{nodes.make.video_name}}", op: "eq", right: "{{vars.title}}" } },
    { id: "render", type: "action", action: "renders.create", input: { video_id: "{{nodes.make.video_id}}" } },
    { id: "never", type: "set", values: { rendered: false } },
    { id: "tag", type: "set", values: { label: "run of {{vars.title}}" } },
  ],
  edges: [
    { source: "make", target: "check" },
    { source: "check", target: "render", when: true },
    { source: "check", target: "never", when: false },
  ],
};

describe("flows create and update check the graph (422 with the fault's path)", () => {
  it("refuses unknown node types and actions, dangling edges and cycles", async () => {
    const { client, workspaceId } = await createFixture(service);
    const cases: [unknown, unknown, string][] = [
      [[{ id: "a", type: "set", values: {} }, { id: "b", type: "teleport" }], [], "nodes.1.type"],
      [[{ id: "a", type: "action", action: "videos.fly" }], [], "nodes.0.action"],
      [[{ id: "a", type: "action", action: "flows.execute" }], [], "nodes.0.action"],
      [[{ id: "a", type: "set", values: {} }], [{ source: "a", target: "a2" }], "edges.0.target"],
      [
        [{ id: "a", type: "set", values: {} }, { id: "b", type: "set", values: {} }, { id: "c", type: "set", values: {} }],
        [{ source: "a", target: "b" }, { source: "b", target: "c" }, { source: "c", target: "a" }],
        "edges.2.target",
      ],
    ];
    for (const [nodes, edges, path] of cases) {
      const response = await client.post("/api/v1/flows", { name: "Bad", nodes, edges });
      expect(response.status, path).toBe(422);
      expect(response.body.error.code).toBe("validation_failed");
      expect(response.body.error.details.issues.map((issue: Row) => issue.path)).toContain(path);
    }
    expect(await prisma().flow.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });

  it("checks an update's edges against the stored nodes", async () => {
    const { client } = await createFixture(service);
    const created = await client.post("/api/v1/flows", { name: "Two steps", nodes: [{ id: "a", type: "set", values: { x: 1 } }, { id: "b", type: "set", values: { y: 2 } }] });
    expect(created.status).toBe(201);
    const dangling = await client.patch(`/api/v1/flows/${created.body.flow_id}`, { edges: [{ source: "a", target: "z" }] });
    expect(dangling.status).toBe(422);
    expect(dangling.body.error.details.issues[0].path).toBe("edges.0.target");
    const fine = await client.patch(`/api/v1/flows/${created.body.flow_id}`, { edges: [{ source: "a", target: "b" }] });
    expect(fine.status).toBe(200);
    expect(fine.body.edges).toEqual([{ source: "a", target: "b" }]);
  });
});

describe("flows.execute", () => {
  it("runs an action, a condition and a second action end to end, billed like direct calls", { timeout: 90_000 }, async () => {
    const fixture = await funded(service, 100);
    const { client, workspaceId } = fixture;
    const flow = (await client.post("/api/v1/flows", THREE_NODE_FLOW)).body;
    const before = await creditBalance(prisma(), workspaceId);

    const launched = await execute(client, flow.flow_id, { title: "Launch day" });
    expect(launched.status).toBe(200);
    expect(launched.body).toMatchObject({ object: "flow_execution", status: "pending", flow_id: flow.flow_id, credits: { cost: 1, charged: 1, held: true } });

    const execution = await finished(launched.body.execution_id);
    expect(execution.status).toBe("completed");
    expect(execution.completed_at).toBeInstanceOf(Date);
    expect(execution.input_variables).toEqual({ title: "Launch day" });
    const states = execution.node_states as Record<string, Row>;
    expect(Object.fromEntries(Object.entries(states).map(([id, state]) => [id, state.status]))).toEqual({ make: "completed", check: "completed", render: "completed", never: "skipped", tag: "completed" });
    expect(states.check!.output).toEqual({ result: true });
    expect(states.render!.credits_consumed).toBe(10);
    // The ordered path: make before check before render; tag ran beside them.
    const path = execution.execution_path as string[];
    expect(path.indexOf("make")).toBeLessThan(path.indexOf("check"));
    expect(path.indexOf("check")).toBeLessThan(path.indexOf("render"));
    expect(path).toContain("tag");
    expect(path).not.toContain("never");
    expect(execution.context.vars).toMatchObject({ title: "Launch day", label: "run of Launch day" });
    expect(execution.total_credits_consumed).toBe(11);

    // The nodes' records are real: the video, and a render queued on it.
    const videoId = states.make!.output.video_id as string;
    const video = await prisma().video.findUnique({ where: { video_id: videoId } });
    expect(video).toMatchObject({ workspace_id: workspaceId, video_name: "Launch day" });
    expect(await prisma().render.count({ where: { video_id: videoId, workspace_id: workspaceId } })).toBe(1);

    // The launch fee plus the render's price left the balance (a render refunds nothing it ran).
    await waitFor("the render to settle", async () => (await prisma().render.findFirst({ where: { video_id: videoId } }))?.render_status === "completed", 60_000);
    expect(before - (await creditBalance(prisma(), workspaceId))).toBe(11);

    const storedFlow = await prisma().flow.findUnique({ where: { flow_id: flow.flow_id } });
    expect(storedFlow!.usage_count).toBe(1);
    expect(storedFlow!.last_executed_at).toBeInstanceOf(Date);

    const flowEvents = await events(workspaceId, "flow.");
    expect(flowEvents.map((event) => event.type)).toEqual(["flow.created", "flow.completed"]);
    expect((flowEvents[1]!.data as Row).object).toMatchObject({ object: "flow_execution", execution_id: execution.execution_id, status: "completed", total_credits_consumed: 11 });
    // Each node's call is announced like a direct call.
    const calls = (await events(workspaceId, "action.")).map((event) => (event.data as Row).object.action);
    expect(calls).toEqual(expect.arrayContaining(["flows.execute", "videos.create", "renders.create"]));

    const history = await client.get(`/api/v1/actions/flows.executions?flowId=${flow.flow_id}`);
    expect(history.status).toBe(200);
    expect(history.body.data.map((row: Row) => row.execution_id)).toEqual([execution.execution_id]);
    expect(history.body.data[0]).toMatchObject({ status: "completed", total_credits_consumed: 11 });
  });

  it("checks each node against the launching key's scopes: the failed node stops its branch, the rest runs, flow.failed reports the credits spent", { timeout: 60_000 }, async () => {
    const owner = await funded(service, 100);
    const limited = await owner.newKey({ scopes: ["flows:execute", "flows:read", "flows:write", "videos:write"] });
    const flow = (await owner.client.post("/api/v1/flows", THREE_NODE_FLOW)).body;
    const before = await creditBalance(prisma(), owner.workspaceId);

    const launched = await execute(limited.client, flow.flow_id);
    expect(launched.status).toBe(200);
    const execution = await finished(launched.body.execution_id);
    expect(execution.status).toBe("failed");
    expect(execution.error_message).toContain("insufficient_scope");
    expect(execution.error_message).toContain("render");
    const states = execution.node_states as Record<string, Row>;
    expect(states.render).toMatchObject({ status: "failed", error: { code: "insufficient_scope" } });
    expect(states.make!.status).toBe("completed");
    expect(states.tag!.status).toBe("completed");
    expect(execution.input_variables).toEqual({ title: "Default title" });
    // Only the launch fee was spent: the render never ran.
    expect(execution.total_credits_consumed).toBe(1);
    expect(before - (await creditBalance(prisma(), owner.workspaceId))).toBe(1);

    const failed = (await events(owner.workspaceId, "flow.")).find((event) => event.type === "flow.failed");
    expect(failed).toBeDefined();
    expect((failed!.data as Row).credits_spent).toBe(1);
    expect((failed!.data as Row).object).toMatchObject({ status: "failed", execution_id: execution.execution_id });
    expect((await prisma().flow.findUnique({ where: { flow_id: flow.flow_id } }))!.usage_count).toBe(1);
  });

  it("counts the nodes' credits against the launching key's monthly credits quota: the node past it fails quota_exceeded", { timeout: 60_000 }, async () => {
    const owner = await funded(service, 100);
    const capped = await owner.newKey({ scopes: ["*:*"], quota: { limit: 2, unit: "credits" } });
    const flow = (await owner.client.post("/api/v1/flows", {
      name: "Two scripts",
      nodes: ["a", "b"].map((id) => ({ id, type: "action", action: "faceless.parse_script", input: { script: `Scene ${id}.` } })),
      edges: [{ source: "a", target: "b" }],
    })).body;
    const before = await creditBalance(prisma(), owner.workspaceId);

    // The launch (1 credit) and node a (1) fill the quota of 2; node b would pass it.
    const launched = await execute(capped.client, flow.flow_id);
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const execution = await finished(launched.body.execution_id);
    expect(execution.status).toBe("failed");
    const states = execution.node_states as Record<string, Row>;
    expect(states.a).toMatchObject({ status: "completed", credits_consumed: 1 });
    expect(states.b).toMatchObject({ status: "failed", error: { code: "quota_exceeded" } });
    expect(before - (await creditBalance(prisma(), owner.workspaceId))).toBe(2);
    // The key's own requests see the quota spent.
    const usage = await capped.client.post("/api/v1/actions/faceless.parse_script", { script: "One more." });
    expect(usage.status).toBe(429);
    expect(usage.body.error.code).toBe("quota_exceeded");
  });

  it("a downstream node of a failed one is stopped, and a node's own bad input fails it with the action's validation", { timeout: 60_000 }, async () => {
    const { client, workspaceId } = await funded(service, 100);
    const flow = (await client.post("/api/v1/flows", {
      name: "Bad input",
      nodes: [
        { id: "make", type: "action", action: "videos.create", input: { video_name: "x", not_a_field: 1 } },
        { id: "after", type: "set", values: { done: true } },
      ],
      edges: [{ source: "make", target: "after" }],
    })).body;
    const execution = await finished((await execute(client, flow.flow_id)).body.execution_id);
    expect(execution.status).toBe("failed");
    expect((execution.node_states as Record<string, Row>).make!.error.code).toBe("validation_failed");
    expect((execution.node_states as Record<string, Row>).after!.status).toBe("stopped");
    expect(await prisma().video.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });

  it("runs transforms alone: set, map over a list, a condition taking its false branch; the launch fee is the whole cost", { timeout: 60_000 }, async () => {
    const { client, workspaceId } = await funded(service, 10);
    const flow = (await client.post("/api/v1/flows", {
      name: "Transforms",
      nodes: [
        { id: "seed", type: "set", values: { items: [{ title: "A" }, { title: "B" }], limit: 5 } },
        { id: "titles", type: "map", from: "{{vars.items}}", to: "titles", value: "{{item.title}}!" },
        { id: "big", type: "condition", if: { left: "{{vars.limit}}", op: "gt", right: 10 } },
        { id: "yes", type: "set", values: { size: "big" } },
        { id: "no", type: "set", values: { size: "small", first: "{{nodes.titles.titles.0}}" } },
      ],
      edges: [
        { source: "seed", target: "titles" },
        { source: "seed", target: "big" },
        { source: "big", target: "yes", when: true },
        { source: "big", target: "no", when: false },
        { source: "titles", target: "no" },
      ],
    })).body;
    const before = await creditBalance(prisma(), workspaceId);
    const execution = await finished((await execute(client, flow.flow_id)).body.execution_id);
    expect(execution.status).toBe("completed");
    expect(execution.context.vars).toMatchObject({ titles: ["A!", "B!"], size: "small", first: "A!" });
    expect((execution.node_states as Record<string, Row>).yes!.status).toBe("skipped");
    expect(execution.total_credits_consumed).toBe(1);
    expect(before - (await creditBalance(prisma(), workspaceId))).toBe(1);
    const page = await client.get(`/api/v1/actions/flows.executions?flowId=${flow.flow_id}`);
    expect(page.body).toMatchObject({ object: "list", has_more: false, next_cursor: null });
  });

  it("answers 400 test_mode_unsupported to a test key and writes nothing", async () => {
    const owner = await funded(service, 100);
    const test = await owner.newKey({ mode: "test" });
    const flow = (await owner.client.post("/api/v1/flows", THREE_NODE_FLOW)).body;
    const before = await creditBalance(prisma(), owner.workspaceId);
    const response = await execute(test.client, flow.flow_id);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("test_mode_unsupported");
    expect(await prisma().flowExecution.count({ where: { workspace_id: owner.workspaceId } })).toBe(0);
    expect(await creditBalance(prisma(), owner.workspaceId)).toBe(before);
  });

  it("refuses another workspace's flow and an unknown one", async () => {
    const mine = await funded(service, 10);
    const theirs = await createFixture(service);
    const flow = (await theirs.client.post("/api/v1/flows", { name: "Theirs", nodes: [] })).body;
    expect((await execute(mine.client, flow.flow_id)).status).toBe(403);
    expect((await execute(mine.client, "flw_missing")).status).toBe(404);
    expect((await mine.client.get(`/api/v1/actions/flows.executions?flowId=${flow.flow_id}`)).status).toBe(403);
  });
});
