// The action runner (src/actions/framework/runner.ts), independent of any family: tiny actions
// declared here with the real defineAction run through the real runAction on the real database,
// in every way an action runs — transaction mode (per call, per item, free, queueing an
// operation, failing, refused for credits), model mode (a write by commit or after the handler,
// fewer units than priced, failing), a test key in both modes, streamed, binary and paged answers,
// a model call's idempotency_key, and the steps of an Idempotency-Key resumed after a crash. In
// each, the balance moves by exactly the price, the ledger holds exactly the rows that say so, and
// exactly one action.completed reports it (or nothing, for a test key; action.failed for a
// failure). One real action (faceless.parse_script, 1 credit) checks an Idempotency-Key replay
// over HTTP.
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineAction, type LiveAction } from "../src/actions/framework/action.js";
import { binaryAnswer, binaryFileOutput } from "../src/actions/framework/binary.js";
import { listOutput } from "../src/actions/framework/outputs.js";
import { pageOf } from "../src/actions/framework/paging.js";
import { runAction } from "../src/actions/framework/runner.js";
import { openAnswerStream, SseChannel } from "../src/actions/framework/stream.js";
import { loadConfig } from "../src/config.js";
import { runInRequestContext, type RequestContext } from "../src/context/request-context.js";
import { ApiError } from "../src/errors/api-error.js";
import { callNodeOnce } from "../src/flows/node-call.js";
import type { GraphQLContext, ServiceHandles } from "../src/graphql/context.js";
import { newId } from "../src/ids.js";
import { defineOperationKind } from "../src/operations/kind.js";
import { createProviders } from "../src/providers/registry.js";
import { createFileService } from "../src/storage/from-config.js";
import { deliverySettings } from "../src/webhooks/delivery.js";
import { balanceOf, funded, ledgerOf } from "./support/action-calls.js";
import { isolatedEnvironment, useService, type Fixture } from "./support/service.js";
import { waitFor } from "./support/wait.js";

type Row = Record<string, any>;

// Its own database and Redis: the operation it queues must not reach another file's workers.
const environment = isolatedEnvironment("action-runner");
const service = useService(environment.overrides);
const prisma = () => service.service.database.prisma;

let services: ServiceHandles;
beforeAll(async () => {
  const config = { ...loadConfig({}), ...environment.overrides };
  services = {
    outbound: service.service.outbound,
    jobs: service.service.jobs,
    live: service.service.live,
    webhookSettings: deliverySettings(config, service.service.keyring),
    files: await createFileService(prisma(), config),
    providers: createProviders(config.providers, { outbound: service.service.outbound }),
    checkOutputs: true,
  };
});

/** The GraphQL context of a call by the fixture's key (a test key when livemode is false). */
function contextOf(fixture: Fixture, livemode = true): GraphQLContext {
  return {
    prisma: prisma(),
    auth: { keyId: fixture.keyId, workspaceId: fixture.workspaceId, scopes: ["*:*"], livemode },
    requestId: newId("request"),
    guards: service.service.guards,
    services,
  };
}

/** Runs the action as the fixture, inside a request context (REST's slots, when given). */
function call(fixture: Fixture, action: LiveAction, input: Record<string, unknown>, options: { livemode?: boolean; request?: Partial<RequestContext> } = {}) {
  const context = contextOf(fixture, options.livemode);
  return runInRequestContext({ requestId: context.requestId, baseUrl: service.url, ...options.request }, () => runAction(context, action, input));
}

async function refusal(work: Promise<unknown>): Promise<ApiError> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error, "the call was expected to be refused").toBeInstanceOf(ApiError);
  return error as ApiError;
}

const callEvents = (workspaceId: string, type: "action.completed" | "action.failed") =>
  prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type }, orderBy: { seq: "asc" } });

/** The action.completed events of the workspace: exactly one, for this action, reporting `spent`. */
async function expectOneCompleted(workspaceId: string, action: LiveAction, spent: number, resultObject: string | null) {
  const events = await callEvents(workspaceId, "action.completed");
  expect(events.map((event) => (event.data as Row).object), "action.completed events").toEqual([
    expect.objectContaining({ object: "action_call", action: action.name, livemode: true, credits_spent: spent, result_object: resultObject }),
  ]);
}

/** Nothing at all left behind: the balance as granted, no ledger row but the grant, no event of the call. */
async function expectUntouched(workspaceId: string, granted: number) {
  expect(await balanceOf(service, workspaceId)).toBe(granted);
  expect((await ledgerOf(service, workspaceId)).map((row) => row.action_type)).toEqual(["grant"]);
  expect(await callEvents(workspaceId, "action.completed")).toEqual([]);
  expect(await callEvents(workspaceId, "action.failed")).toEqual([]);
}

/** The ledger rows of the calls (all but the fixture's grant). */
async function callRows(workspaceId: string) {
  return (await ledgerOf(service, workspaceId)).filter((row) => row.action_type !== "grant");
}

/** The ledger rows of the calls as [action_type, amount], in a fixed order (rows of one millisecond have no other). */
async function movements(workspaceId: string): Promise<[string, number][]> {
  return (await callRows(workspaceId)).map((row): [string, number] => [row.action_type, row.amount]).sort(([a, x], [b, y]) => a.localeCompare(b) || x - y);
}

// ---- the tiny actions ---------------------------------------------------------------------------

const probe = z.object({ object: z.literal("probe"), note: z.string() });
const PRICE = 3;
/** What every probe declares alike. */
const PROBE = { method: "POST", scopes: ["videos:write"], weight: 1, purpose: "runner probe" } as const;

/** Transaction mode, 3 credits a call: writes a folder named by `note` in the call's transaction. */
const perCall = defineAction({
  name: "probe.per_call",
  ...PROBE,
  credits: true,
  price: { credits: PRICE, per: "call" },
  input: z.strictObject({ note: z.string(), fail: z.boolean().optional() }),
  output: probe,
  async run({ tx, graphql, reference }, input) {
    const folderId = newId("folder");
    await tx.folder.create({ data: { folder_id: folderId, workspace_id: graphql.auth.workspaceId, folder_name: input.note } });
    reference(folderId);
    if (input.fail) throw new ApiError("conflict", "The probe failed after its write.");
    return { object: "probe" as const, note: input.note };
  },
});

/** Transaction mode, 2 credits per item of `items`. */
const perItem = defineAction({
  name: "probe.per_item",
  ...PROBE,
  credits: true,
  price: { credits: 2, per: "item", unit_field: "items" },
  input: z.strictObject({ items: z.array(z.string()).min(1) }),
  output: probe,
  run: async (_context, input) => ({ object: "probe" as const, note: input.items.join(",") }),
});

/** Transaction mode, free. */
const free = defineAction({
  name: "probe.free",
  ...PROBE,
  credits: false,
  input: z.strictObject({}),
  output: probe,
  run: async () => ({ object: "probe" as const, note: "free" }),
});

const probeKind = defineOperationKind({
  kind: "runner_probe",
  queue: "runner_probe",
  input: z.strictObject({}),
  run: async () => ({}),
  onComplete: async () => undefined,
  onFail: async () => undefined,
});

/** Transaction mode, 5 credits held by the operation it queues. */
const queues = defineAction({
  name: "probe.queue",
  ...PROBE,
  credits: true,
  price: { credits: 5, per: "call" },
  input: z.strictObject({}),
  output: z.object({ object: z.literal("probe_operation"), operation_id: z.string() }),
  async run({ queueOperation }) {
    const operation = await queueOperation(probeKind, { subjectId: newId("folder"), input: {} });
    return { object: "probe_operation" as const, operation_id: operation.operation_id };
  },
});

/**
 * Model mode, 4 credits per item: writes through commit() or lets the runner finish, reports
 * fewer units when told, fails when told; takes an idempotency_key.
 */
const model = defineAction({
  name: "probe.model",
  ...PROBE,
  credits: true,
  price: { credits: 4, per: "item", unit_field: "items" },
  weight: 2,
  mode: "model",
  input: z.strictObject({
    items: z.array(z.string()).min(1),
    ran: z.number().int().optional(),
    commit: z.boolean().optional(),
    fail: z.boolean().optional(),
    idempotency_key: z.string().optional(),
  }),
  output: probe,
  async run({ commit, ran, reference }, input) {
    reference("ref_model");
    if (input.fail) throw new ApiError("upstream_error", "The probe's model failed.");
    if (input.ran !== undefined) ran(input.ran);
    const answer = { object: "probe" as const, note: input.items.join(",") };
    return input.commit ? commit(async () => answer) : answer;
  },
});

let stallingAttempts = 0;

/** Model mode, 4 credits per item, whose first attempt dies once its hold is committed (it never answers). */
const stalls = defineAction({
  name: "probe.stalls",
  ...PROBE,
  credits: true,
  price: { credits: 4, per: "item", unit_field: "items" },
  weight: 2,
  mode: "model",
  input: z.strictObject({ items: z.array(z.string()).min(1) }),
  output: probe,
  async run(_context, input) {
    stallingAttempts += 1;
    if (stallingAttempts === 1) await new Promise(() => undefined);
    return { object: "probe" as const, note: input.items.join(",") };
  },
});

/** Model mode, 2 credits a call, streaming `start` and `delta` when asked to. */
const streamed = defineAction({
  name: "probe.streamed",
  ...PROBE,
  credits: true,
  price: { credits: 2, per: "call" },
  weight: 2,
  mode: "model",
  streams: true,
  input: z.strictObject({ stream: z.boolean().optional() }),
  output: probe,
  async run(_context, input) {
    const stream = input.stream ? openAnswerStream() : undefined;
    stream?.send("start", { object: "probe" });
    stream?.send("delta", { text: "hel" });
    stream?.send("delta", { text: "lo" });
    return { object: "probe" as const, note: "hello" };
  },
});

/** A binary answer (free, as every binary action is). */
const binary = defineAction({
  name: "probe.binary",
  method: "POST",
  scopes: ["videos:read"],
  credits: false,
  weight: 1,
  purpose: "runner probe",
  binary: true,
  input: z.strictObject({}),
  output: binaryFileOutput,
  run: async ({ graphql }) => binaryAnswer(graphql, { data: new TextEncoder().encode("probe bytes"), contentType: "text/plain", filename: "probe.txt" }),
});

/** A paged list (free): the workspace's ledger, newest first. */
const paged = defineAction({
  name: "probe.paged",
  method: "GET",
  scopes: ["usage:read"],
  credits: false,
  weight: 1,
  purpose: "runner probe",
  input: z.strictObject({ limit: z.number().int().optional(), cursor: z.string().optional() }),
  output: listOutput(z.object({ transaction_id: z.string(), amount: z.number().int() })),
  async run({ tx, graphql }, input) {
    const page = await pageOf(
      input,
      ({ after, skip, take }) =>
        tx.creditTransaction.findMany({
          where: { workspace_id: graphql.auth.workspaceId, ...(after && { OR: [{ created_at: { lt: after.at } }, { created_at: after.at, transaction_id: { lt: after.id } }] }) },
          orderBy: [{ created_at: "desc" }, { transaction_id: "desc" }],
          skip,
          take,
        }),
      (row) => ({ at: row.created_at, id: row.transaction_id }),
    );
    return { object: "list" as const, data: page.rows.map((row) => ({ transaction_id: row.transaction_id, amount: row.amount })), has_more: page.has_more, next_cursor: page.next_cursor, limit: page.limit };
  },
});

// ---- transaction mode ---------------------------------------------------------------------------

describe("transaction mode", () => {
  it("charges exactly the price per call: the balance, one ledger row naming the record, one action.completed", async () => {
    const fixture = await funded(service, 10);
    const answer = await call(fixture, perCall, { note: "paid" });
    expect(answer).toEqual({ object: "probe", note: "paid", credits: { cost: PRICE, charged: PRICE, balance_after: 10 - PRICE, held: false } });
    expect(await balanceOf(service, fixture.workspaceId)).toBe(10 - PRICE);
    const folder = await prisma().folder.findFirstOrThrow({ where: { workspace_id: fixture.workspaceId, folder_name: "paid" } });
    const [spend, ...rest] = await callRows(fixture.workspaceId);
    expect(rest).toEqual([]);
    expect(spend).toMatchObject({ action_type: perCall.name, amount: -PRICE, balance_after: 10 - PRICE, key_id: fixture.keyId, reference_id: folder.folder_id });
    await expectOneCompleted(fixture.workspaceId, perCall, PRICE, "probe");
  });

  it("charges the price times the units of the unit field", async () => {
    const fixture = await funded(service, 10);
    const answer = await call(fixture, perItem, { items: ["a", "b", "c"] });
    expect(answer.credits).toEqual({ cost: 6, charged: 6, balance_after: 4, held: false });
    expect(await balanceOf(service, fixture.workspaceId)).toBe(4);
    expect(await movements(fixture.workspaceId)).toEqual([[perItem.name, -6]]);
    await expectOneCompleted(fixture.workspaceId, perItem, 6, "probe");
  });

  it("a free action moves no credit and still reports its call", async () => {
    const fixture = await funded(service, 10);
    expect(await call(fixture, free, {})).toEqual({ object: "probe", note: "free" });
    expect(await balanceOf(service, fixture.workspaceId)).toBe(10);
    expect(await movements(fixture.workspaceId)).toEqual([]);
    await expectOneCompleted(fixture.workspaceId, free, 0, "probe");
  });

  it("queueing an operation holds exactly the price on it", async () => {
    const fixture = await funded(service, 10);
    const answer = await call(fixture, queues, {});
    expect(answer.credits).toEqual({ cost: 5, charged: 5, balance_after: 5, held: true });
    expect(await balanceOf(service, fixture.workspaceId)).toBe(5);
    const operation = await prisma().operation.findUniqueOrThrow({ where: { operation_id: answer.operation_id as string } });
    expect(operation).toMatchObject({ kind: "runner_probe", status: "queued", credits_held: 5, action: queues.name, key_id: fixture.keyId });
    const [hold] = await callRows(fixture.workspaceId);
    expect(hold).toMatchObject({ action_type: queues.name, amount: -5, reference_id: operation.subject_id, metadata: { operation_id: operation.operation_id, hold: true } });
    expect(await movements(fixture.workspaceId)).toEqual([[queues.name, -5]]);
    await expectOneCompleted(fixture.workspaceId, queues, 5, "probe_operation");
  });

  it("a handler that fails after writing rolls its write back, charges nothing and records action.failed", async () => {
    const fixture = await funded(service, 10);
    expect((await refusal(call(fixture, perCall, { note: "lost", fail: true }))).code).toBe("conflict");
    expect(await balanceOf(service, fixture.workspaceId)).toBe(10);
    expect(await prisma().folder.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
    expect(await movements(fixture.workspaceId)).toEqual([]);
    expect(await callEvents(fixture.workspaceId, "action.completed")).toEqual([]);
    expect((await callEvents(fixture.workspaceId, "action.failed")).map((event) => (event.data as Row).object.error.code)).toEqual(["conflict"]);
  });

  it("a balance one credit short is refused before the work: 402, nothing written", async () => {
    const fixture = await funded(service, PRICE - 1);
    const error = await refusal(call(fixture, perCall, { note: "unpaid" }));
    expect(error).toMatchObject({ code: "insufficient_credits", status: 402 });
    expect(await balanceOf(service, fixture.workspaceId)).toBe(PRICE - 1);
    expect(await prisma().folder.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
    expect(await movements(fixture.workspaceId)).toEqual([]);
    expect(await callEvents(fixture.workspaceId, "action.completed")).toEqual([]);
  });

  it("with a test key the work runs and is rolled back: the cost is reported, nothing is charged or written", async () => {
    const fixture = await funded(service, 10);
    const answer = await call(fixture, perCall, { note: "simulated" }, { livemode: false });
    expect(answer).toEqual({ object: "probe", note: "simulated", credits: { cost: PRICE, charged: 0, balance_after: null, held: false } });
    expect(await call(fixture, queues, {}, { livemode: false })).toMatchObject({ credits: { cost: 5, charged: 0, balance_after: null, held: false } });
    expect(await prisma().folder.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
    expect(await prisma().operation.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
    await expectUntouched(fixture.workspaceId, 10);
  });
});

// ---- model mode ---------------------------------------------------------------------------------

describe("model mode", () => {
  it("holds the price, then keeps all of it when the handler answers: one hold row, one action.completed", async () => {
    const fixture = await funded(service, 20);
    const answer = await call(fixture, model, { items: ["a", "b"] });
    expect(answer).toEqual({ object: "probe", note: "a,b", credits: { cost: 8, charged: 8, balance_after: 12, held: false } });
    expect(await balanceOf(service, fixture.workspaceId)).toBe(12);
    const [hold, ...rest] = await callRows(fixture.workspaceId);
    expect(rest).toEqual([]);
    expect(hold).toMatchObject({ action_type: model.name, amount: -8, reference_id: "ref_model", metadata: { kind: "hold", credits_spent: 8, usage: [] } });
    await expectOneCompleted(fixture.workspaceId, model, 8, "probe");
  });

  it("the same when the handler writes through commit()", async () => {
    const fixture = await funded(service, 20);
    expect((await call(fixture, model, { items: ["a"], commit: true })).credits).toEqual({ cost: 4, charged: 4, balance_after: 16, held: false });
    expect(await balanceOf(service, fixture.workspaceId)).toBe(16);
    expect(await movements(fixture.workspaceId)).toEqual([[model.name, -4]]);
    await expectOneCompleted(fixture.workspaceId, model, 4, "probe");
  });

  it("fewer units than priced: the unused part of the hold comes back, and the call reports what it spent", async () => {
    const fixture = await funded(service, 20);
    expect((await call(fixture, model, { items: ["a", "b", "c"], ran: 1 })).credits).toEqual({ cost: 4, charged: 4, balance_after: 16, held: false });
    expect(await balanceOf(service, fixture.workspaceId)).toBe(16);
    expect(await movements(fixture.workspaceId)).toEqual([[model.name, -12], ["refund", 8]]);
    await expectOneCompleted(fixture.workspaceId, model, 4, "probe");
  });

  it("a failing handler gets the whole hold back and records action.failed, not action.completed", async () => {
    const fixture = await funded(service, 20);
    expect((await refusal(call(fixture, model, { items: ["a"], fail: true }))).code).toBe("upstream_error");
    expect(await balanceOf(service, fixture.workspaceId)).toBe(20);
    expect(await movements(fixture.workspaceId)).toEqual([[model.name, -4], ["refund", 4]]);
    expect(await callEvents(fixture.workspaceId, "action.completed")).toEqual([]);
    expect(await callEvents(fixture.workspaceId, "action.failed")).toHaveLength(1);
  });

  it("with a test key the call is quoted: priced, nothing held, spent or recorded", async () => {
    const fixture = await funded(service, 20);
    expect(await call(fixture, model, { items: ["a", "b"] }, { livemode: false })).toEqual({
      object: "action_quote",
      action: model.name,
      credits: { cost: 8, charged: 0, balance_after: null, held: false },
      units: 2,
      capabilities: [],
    });
    await expectUntouched(fixture.workspaceId, 20);
  });

  it("an idempotency_key given again answers the stored result and charges nothing the second time", async () => {
    const fixture = await funded(service, 20);
    const first = await call(fixture, model, { items: ["a"], idempotency_key: "probe-once" });
    const again = await call(fixture, model, { items: ["a"], idempotency_key: "probe-once" });
    expect(first.credits).toEqual({ cost: 4, charged: 4, balance_after: 16, held: false });
    expect(again).toEqual({ ...first, credits: { ...(first.credits as Row), charged: 0, balance_after: null } });
    expect(await balanceOf(service, fixture.workspaceId)).toBe(16);
    expect(await movements(fixture.workspaceId)).toEqual([[model.name, -4]]);
    await expectOneCompleted(fixture.workspaceId, model, 4, "probe");
  });
});

// ---- streamed, binary and paged answers ---------------------------------------------------------

describe("streamed, binary and paged answers", () => {
  it("streamed: the events go out on the channel REST opened, and the call is charged and reported once", async () => {
    const fixture = await funded(service, 10);
    const channel = new SseChannel();
    const answer = await call(fixture, streamed, { stream: true }, { request: { streamAnswer: channel } });
    channel.close();
    const text = await new Response(channel.readable).text();
    expect(channel.isOpen).toBe(true);
    expect([...text.matchAll(/^event: (\w+)$/gm)].map((match) => match[1])).toEqual(["start", "delta", "delta"]);
    expect(answer.credits).toEqual({ cost: 2, charged: 2, balance_after: 8, held: false });
    expect(await balanceOf(service, fixture.workspaceId)).toBe(8);
    expect(await movements(fixture.workspaceId)).toEqual([[streamed.name, -2]]);
    await expectOneCompleted(fixture.workspaceId, streamed, 2, "probe");
  });

  it("binary: the bytes go to REST's slot, or to storage behind a link; nothing charged, the call reported each time", async () => {
    const fixture = await funded(service, 10);
    const slot: NonNullable<RequestContext["binaryAnswer"]> = {};
    expect(await call(fixture, binary, {}, { request: { binaryAnswer: slot } })).toMatchObject({ object: "file", size_bytes: 11, url: null });
    expect(Buffer.from(slot.file!.data).toString()).toBe("probe bytes");
    const linked = await call(fixture, binary, {});
    expect(linked.url).toMatch(/^http/);
    expect(await (await fetch(linked.url as string)).text()).toBe("probe bytes");
    expect(await balanceOf(service, fixture.workspaceId)).toBe(10);
    expect(await movements(fixture.workspaceId)).toEqual([]);
    const events = await callEvents(fixture.workspaceId, "action.completed");
    expect(events.map((event) => (event.data as Row).object)).toEqual([
      expect.objectContaining({ action: binary.name, credits_spent: 0, result_object: "file" }),
      expect.objectContaining({ action: binary.name, credits_spent: 0, result_object: "file" }),
    ]);
  });

  it("paged: every page is a call of its own, free and reported", async () => {
    const fixture = await funded(service, 10);
    await call(fixture, perCall, { note: "one" });
    const first = await call(fixture, paged, { limit: 1 });
    expect(first).toMatchObject({ object: "list", has_more: true, limit: 1, data: [{}] });
    const second = await call(fixture, paged, { limit: 1, cursor: first.next_cursor });
    expect(second).toMatchObject({ has_more: false, next_cursor: null, data: [{}] });
    // The two pages hold the grant and the spend, each once.
    expect([...(first.data as Row[]), ...(second.data as Row[])].map((row) => row.amount as number).sort((a, b) => a - b)).toEqual([-PRICE, 10]);
    expect(await balanceOf(service, fixture.workspaceId)).toBe(10 - PRICE);
    expect(await movements(fixture.workspaceId)).toEqual([[perCall.name, -PRICE]]);
    const events = await callEvents(fixture.workspaceId, "action.completed");
    expect(events.map((event) => [(event.data as Row).object.action, (event.data as Row).object.credits_spent])).toEqual([
      [perCall.name, PRICE],
      [paged.name, 0],
      [paged.name, 0],
    ]);
  });
});

// ---- Idempotency-Key ----------------------------------------------------------------------------

describe("under an Idempotency-Key", () => {
  it("a model call resumed after its first attempt died holding the credits holds nothing again and completes once", async () => {
    const fixture = await funded(service, 20);
    const context = contextOf(fixture);
    const node = { prisma: prisma(), keyId: fixture.keyId, executionId: newId("flow_execution"), nodeId: "n1", action: stalls.name, input: { items: ["a", "b"] }, requestId: context.requestId, baseUrl: service.url };
    void callNodeOnce(node, () => runAction(context, stalls, node.input));
    await waitFor("the first attempt's hold", async () => (await movements(fixture.workspaceId)).length === 1);

    const answer = await callNodeOnce(node, () => runAction(contextOf(fixture), stalls, node.input));
    expect(stallingAttempts).toBe(2);
    expect(answer.credits).toMatchObject({ cost: 8, charged: 8, held: false });
    expect(await balanceOf(service, fixture.workspaceId)).toBe(12);
    expect(await movements(fixture.workspaceId)).toEqual([[stalls.name, -8]]);
    await expectOneCompleted(fixture.workspaceId, stalls, 8, "probe");
  });

  it("over HTTP, a replayed call (faceless.parse_script, 1 credit) is charged and reported once", async () => {
    const fixture = await funded(service, 5);
    const headers = { "idempotency-key": `runner-${newId("request")}` };
    const body = { script: "The tide comes in.\n\nThe tide goes out." };
    const first = await fixture.client.post("/api/v1/actions/faceless.parse_script", body, { headers });
    const again = await fixture.client.post("/api/v1/actions/faceless.parse_script", body, { headers });
    expect(first.status, first.text).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(first.body.credits).toEqual({ cost: 1, charged: 1, balance_after: 4, held: false });
    expect(await balanceOf(service, fixture.workspaceId)).toBe(4);
    expect(await movements(fixture.workspaceId)).toEqual([["faceless.parse_script", -1]]);
    const events = await callEvents(fixture.workspaceId, "action.completed");
    expect(events.map((event) => [(event.data as Row).object.action, (event.data as Row).object.credits_spent])).toEqual([["faceless.parse_script", 1]]);
  });
});
