// The flow operation of flows.execute (docs/flows.md, docs/operations.md). The worker walks the
// flow's graph (./engine.ts); every action node is a direct call of that action through the action
// runner (src/actions/framework/runner.ts) as the key that launched the flow: the same validation,
// scope check, credits and events as a call over HTTP. The execution record mirrors the run:
//   pending ──► running ──► completed   flow.completed
//                   └─────► failed      flow.failed (the failed node, and the credits already spent)
// The launch fee is the operation's hold, kept once the run starts. A worker lost mid-run is
// replaced: the retaken attempt resumes from the execution record (nodes that ended do not run
// again) and each action node's call is exactly-once across attempts (./node-call.ts).
import { z } from "zod";
import type { Tx } from "../db/transaction.js";
import type { FlowExecution, Prisma } from "../generated/prisma/client.js";
import type { GraphQLContext, ServiceHandles } from "../graphql/context.js";
import type { JobQueues } from "../jobs/queues.js";
import { recordEvent } from "../outbox/record-event.js";
import { defineOperationKind, OperationFailure, type OperationRow, type OperationRunContext } from "../operations/kind.js";
import { failureMessage, subjectStatus } from "../operations/subject-status.js";
import { presentRecord } from "../resources/selection.js";
import { runAction } from "../actions/framework/runner.js";
import { ApiError } from "../errors/api-error.js";
import { missingScopes } from "../auth/scopes.js";
import { insufficientScope } from "../auth/scope-refusal.js";
import { catalogLookup, liveActionOf } from "./action-lookup.js";
import { checkGraph } from "./graph.js";
import { runGraph, type RunState } from "./engine.js";
import { flowExecutions } from "./resource.js";
import { callNodeOnce } from "./node-call.js";
import { RequestMeter } from "../guards/meter.js";
import type { KeyQuota, QuotaService } from "../guards/quota.js";
import { serviceBaseUrl } from "../storage/from-config.js";

export const flowInput = z.strictObject({
  flow_id: z.string().min(1),
  variables: z.record(z.string(), z.json()),
  /** The launching key as it was when the flow was launched: each node is its call. */
  caller: z.strictObject({ key_id: z.string().min(1), scopes: z.array(z.string()) }),
});
export type FlowInput = z.output<typeof flowInput>;

const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue;

/** Handles a direct HTTP call has and a flow node does not (rate windows, live subscriptions). */
function unavailable<T extends object>(what: string): T {
  return new Proxy({} as T, {
    get(_target, property) {
      throw new Error(`${what}.${String(property)} is not available to a flow node`);
    },
  });
}

/** The GraphQL context of a node's call: the launching key, its workspace, the flow's request id. */
function nodeCallContext(run: OperationRunContext, caller: FlowInput["caller"]): GraphQLContext {
  const { operation } = run;
  const services: ServiceHandles = {
    outbound: run.outbound,
    jobs: { enqueue: run.enqueue } as unknown as JobQueues,
    live: unavailable("live"),
    webhookSettings: unavailable("webhookSettings"),
    files: run.files,
    providers: run.registry,
    checkOutputs: run.config.checkActionOutputs,
  };
  return {
    prisma: run.prisma,
    auth: { keyId: caller.key_id, workspaceId: operation.workspace_id, scopes: caller.scopes, livemode: true },
    requestId: operation.request_id ?? operation.operation_id,
    guards: unavailable("guards"),
    services,
  };
}

/**
 * A node call's meter. Rate windows do not apply to node calls (the launch request was counted);
 * the credits a node spends count against the launching key's monthly credits quota as an HTTP
 * call's would, so a flow cannot spend past the ceiling its key carries.
 */
class NodeCallMeter extends RequestMeter {
  constructor(quotas: QuotaService, keyId: string, quota: KeyQuota) {
    super({ rateLimits: unavailable("rateLimits"), quotas, windowSeconds: unavailable("windowSeconds") }, keyId, unavailable("rateLimits"), quota);
  }

  override async charge(): Promise<void> {}
}

/** The meter of the launching key's node calls: its credits quota, if it has one (read once per run). */
async function creditsQuotaMeter(run: OperationRunContext, keyId: string): Promise<NodeCallMeter | undefined> {
  const key = await run.prisma.apiKey.findUnique({ where: { key_id: keyId }, select: { quota_limit: true, quota_unit: true } });
  if (key?.quota_limit === null || key?.quota_limit === undefined || key.quota_unit !== "credits") return undefined;
  return new NodeCallMeter(run.quotas, keyId, { limit: key.quota_limit, unit: "credits" });
}

async function saveState(run: OperationRunContext, state: RunState, launchFee: number): Promise<void> {
  const nodes = Object.values(state.node_states);
  const done = nodes.filter((node) => node.status !== "pending" && node.status !== "running").length;
  run.progress(nodes.length === 0 ? 99 : (done / nodes.length) * 100);
  await run.prisma.flowExecution.update({
    where: { execution_id: run.operation.subject_id },
    data: {
      node_states: json(state.node_states),
      execution_path: json(state.execution_path),
      context: json(state.context),
      total_credits_consumed: launchFee + state.credits,
    },
  });
}

const executionStatus = subjectStatus<Prisma.FlowExecutionUpdateManyMutationInput, FlowExecution>({ table: (tx) => tx.flowExecution, id: "execution_id", status: "status" });

/** The run ended either way: the flow counts it, and the event announces it. */
async function finish(tx: Tx, operation: OperationRow, row: Record<string, unknown> & { flow_id: string; completed_at: Date | null } | undefined, type: "flow.completed" | "flow.failed", extra: Record<string, unknown> = {}) {
  if (!row) return;
  await tx.flow.update({ where: { flow_id: row.flow_id }, data: { usage_count: { increment: 1 }, last_executed_at: row.completed_at ?? new Date() } });
  await recordEvent(tx, { workspaceId: operation.workspace_id, type, livemode: true, data: { object: presentRecord(flowExecutions, row), ...extra } });
}

export const flowOperation = defineOperationKind({
  kind: "flow",
  queue: "flow",
  input: flowInput,
  maxAttempts: 3,

  onStart: executionStatus.onStart,

  async run(context, input) {
    const { prisma, operation } = context;
    const flow = await prisma.flow.findFirst({ where: { flow_id: input.flow_id, workspace_id: operation.workspace_id } });
    if (!flow) throw new OperationFailure("not_found", `The flow '${input.flow_id}' was deleted before it ran.`);
    // The actions may have changed since the flow was saved.
    const { graph, issues } = checkGraph(flow.nodes, flow.edges, catalogLookup);
    if (issues.length > 0) throw new OperationFailure("validation_failed", `The flow's graph is not valid: ${issues[0]!.path}: ${issues[0]!.message}`);
    // The launch fee is spent once the run starts; the nodes pay for themselves.
    const launchFee = operation.credits_held;
    await context.spent(launchFee);
    const call = nodeCallContext(context, input.caller);
    const meter = await creditsQuotaMeter(context, input.caller.key_id);
    // A retaken attempt resumes from what the earlier one saved.
    const saved = operation.attempts > 1 ? await prisma.flowExecution.findUnique({ where: { execution_id: operation.subject_id }, select: { node_states: true, execution_path: true, context: true } }) : null;
    const { state, failure } = await runGraph(graph, input.variables, {
      signal: context.signal,
      async action(node, nodeInput) {
        const action = liveActionOf(node.action);
        if (!action) throw new ApiError("invalid_request", `The action '${node.action}' is not available.`);
        if (missingScopes(input.caller.scopes, action.scopes).length > 0) throw insufficientScope(input.caller.scopes, action.scopes);
        const body = await callNodeOnce(
          {
            prisma,
            keyId: input.caller.key_id,
            executionId: operation.subject_id,
            nodeId: node.id,
            action: action.name,
            input: nodeInput,
            requestId: call.requestId,
            baseUrl: serviceBaseUrl(context.config),
            meter,
          },
          () => runAction(call, action, nodeInput),
        );
        const credits = (body.credits as { charged?: number } | undefined)?.charged ?? 0;
        return { output: body, credits };
      },
      changed: (current) => saveState(context, current, launchFee),
    }, saved ?? undefined);
    if (failure) throw new OperationFailure(failure.code, failure.message);
    return { result: { execution_id: operation.subject_id, total_credits_consumed: launchFee + state.credits }, creditsSpent: launchFee };
  },

  async onComplete(tx, operation) {
    const row = await executionStatus.move(tx, operation, ["running"], { status: "completed", completed_at: new Date(), error_message: null });
    await finish(tx, operation, row, "flow.completed");
  },

  onRetake: executionStatus.onRetake,

  async onFail(tx, operation, failure) {
    const row = await executionStatus.move(tx, operation, ["pending", "running"], { status: "failed", completed_at: new Date(), error_message: failureMessage(failure) });
    await finish(tx, operation, row, "flow.failed", { error_code: failure.code, credits_spent: row?.total_credits_consumed ?? 0 });
  },
});
