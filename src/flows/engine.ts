// Walks a flow's graph for one execution (docs/flows.md). A node starts once every edge into it is
// decided; nodes whose inputs are ready start together, so independent branches run in parallel.
// - An edge is active when its source completed (and, leaving a condition, when its `when` matches
//   the condition's result); inactive when its source was skipped, stopped or failed.
// - A node with an active edge in runs; with none (a condition's other branch) it is skipped.
// - A node that fails stops its branch: every node downstream of it is `stopped`; branches that do
//   not depend on it run to their end. The execution then ends failed, naming the node.
import { ApiError } from "../errors/api-error.js";
import { logger } from "../logger.js";
import type { ActionNode, FlowGraph, FlowNode } from "./graph.js";
import { compare, resolve, type Scope } from "./templates.js";

export type NodeStatus = "pending" | "running" | "completed" | "failed" | "skipped" | "stopped";

export interface NodeState {
  status: NodeStatus;
  type: FlowNode["type"];
  action?: string;
  started_at?: string;
  completed_at?: string;
  credits_consumed: number;
  output?: unknown;
  error?: { code: string; message: string };
  reason?: string;
}

export interface RunState {
  node_states: Record<string, NodeState>;
  /** Node ids in the order they ended (completed or failed). */
  execution_path: string[];
  context: Scope;
  /** Credits the nodes' action calls charged. */
  credits: number;
}

export interface ActionOutcome {
  output: Record<string, unknown>;
  credits: number;
}

export interface GraphRun {
  /** Calls a node's action as a direct call would; throws the call's error. */
  action(node: ActionNode, input: Record<string, unknown>): Promise<ActionOutcome>;
  /** Called after each node moves, in order; the state is the run's own (copy what you keep). */
  changed(state: RunState): Promise<void>;
  signal?: AbortSignal;
}

export class NodeFailure extends Error {
  constructor(readonly nodeId: string, readonly code: string, message: string) {
    super(message);
    this.name = "NodeFailure";
  }
}

export function initialStates(graph: FlowGraph): Record<string, NodeState> {
  return Object.fromEntries(graph.nodes.map((node) => [node.id, { status: "pending", type: node.type, ...(node.type === "action" && { action: node.action }), credits_consumed: 0 } satisfies NodeState]));
}

/** What an earlier attempt saved of the run (the execution record): a retaken attempt resumes from it. */
export interface SavedRun {
  node_states: unknown;
  execution_path: unknown;
  context: unknown;
}

const ENDED: ReadonlySet<NodeStatus> = new Set(["completed", "failed", "skipped", "stopped"]);

/**
 * The state a retaken attempt starts from: nodes that ended keep their status, output and credits
 * (they do not run again), the variables and outputs come from the saved context; a node that was
 * `running` when the worker died is pending again (its action call is exactly-once: see
 * ./node-call.ts). Undefined when nothing was saved yet (a first attempt).
 */
function resumedState(graph: FlowGraph, saved: SavedRun | undefined): RunState | undefined {
  const states = saved?.node_states as Record<string, NodeState> | null | undefined;
  const context = saved?.context as Scope | null | undefined;
  if (!states || !context || typeof context !== "object" || !context.vars) return undefined;
  const node_states = initialStates(graph);
  let credits = 0;
  for (const node of graph.nodes) {
    const earlier = states[node.id];
    if (!earlier || !ENDED.has(earlier.status)) continue;
    node_states[node.id] = earlier;
    credits += earlier.credits_consumed ?? 0;
  }
  const path = Array.isArray(saved!.execution_path) ? (saved!.execution_path as string[]).filter((id) => ENDED.has(node_states[id]?.status ?? "pending")) : [];
  return { node_states, execution_path: path, context: { vars: { ...context.vars }, nodes: { ...(context.nodes ?? {}) } }, credits };
}

/**
 * Runs the graph to its end; the first failed node (if any) is returned with the final state.
 * With `saved` (a retaken attempt), the nodes that already ended are not run again.
 */
export async function runGraph(graph: FlowGraph, variables: Record<string, unknown>, run: GraphRun, saved?: SavedRun): Promise<{ state: RunState; failure?: NodeFailure }> {
  const state: RunState = resumedState(graph, saved) ?? { node_states: initialStates(graph), execution_path: [], context: { vars: { ...variables }, nodes: {} }, credits: 0 };
  const incoming = new Map<string, number[]>(graph.nodes.map((node) => [node.id, []]));
  const outgoing = new Map<string, number[]>(graph.nodes.map((node) => [node.id, []]));
  graph.edges.forEach((edge, index) => {
    incoming.get(edge.target)!.push(index);
    outgoing.get(edge.source)!.push(index);
  });
  /** Per edge: undefined (not decided yet), active, inactive, or stopped (its source failed or was stopped). */
  const edgeState: ("active" | "inactive" | "stopped" | undefined)[] = graph.edges.map(() => undefined);
  let failure: NodeFailure | undefined;
  let writes = Promise.resolve();
  const changed = () => (writes = writes.then(() => run.changed(state)));

  const decide = (node: FlowNode, result?: boolean) => {
    const status = state.node_states[node.id]!.status;
    for (const index of outgoing.get(node.id)!) {
      const edge = graph.edges[index]!;
      if (status === "failed" || status === "stopped") edgeState[index] = "stopped";
      else if (status === "skipped") edgeState[index] = "inactive";
      else edgeState[index] = edge.when === undefined || node.type !== "condition" || edge.when === result ? "active" : "inactive";
    }
  };

  const execute = async (node: FlowNode): Promise<void> => {
    const nodeState = state.node_states[node.id]!;
    const scope = state.context;
    let result: boolean | undefined;
    try {
      if (run.signal?.aborted) throw new NodeFailure(node.id, "canceled", "The execution stopped before this node ran.");
      switch (node.type) {
        case "action": {
          const input = resolve(node.input ?? {}, scope);
          const outcome = await run.action(node, input as Record<string, unknown>);
          nodeState.credits_consumed = outcome.credits;
          state.credits += outcome.credits;
          nodeState.output = outcome.output;
          break;
        }
        case "set": {
          const values = resolve(node.values, scope) as Record<string, unknown>;
          Object.assign(scope.vars, values);
          nodeState.output = values;
          break;
        }
        case "map": {
          const list = resolve(node.from, scope);
          if (!Array.isArray(list)) throw new NodeFailure(node.id, "map_input_not_list", `The map node '${node.id}' needs a list in 'from'; it got ${list === null ? "null" : typeof list}.`);
          const mapped = list.map((item) => resolve(node.value, { ...scope, item }));
          scope.vars[node.to] = mapped;
          nodeState.output = { [node.to]: mapped };
          break;
        }
        case "condition": {
          result = compare(resolve(node.if.left, scope), node.if.op, resolve(node.if.right ?? null, scope));
          nodeState.output = { result };
          break;
        }
      }
      scope.nodes[node.id] = nodeState.output;
      nodeState.status = "completed";
    } catch (error) {
      const nodeFailure = asNodeFailure(node, error);
      nodeState.status = "failed";
      nodeState.error = { code: nodeFailure.code, message: nodeFailure.message };
      failure ??= nodeFailure;
    }
    nodeState.completed_at = new Date().toISOString();
    state.execution_path.push(node.id);
    decide(node, result);
    await changed();
  };

  // The nodes that ended in an earlier attempt decide their edges as they did then.
  for (const node of graph.nodes) {
    const nodeState = state.node_states[node.id]!;
    if (!ENDED.has(nodeState.status)) continue;
    if (nodeState.status === "failed") failure ??= new NodeFailure(node.id, nodeState.error?.code ?? "internal_error", nodeState.error?.message ?? `Node ${node.id} failed.`);
    decide(node, node.type === "condition" ? (nodeState.output as { result?: boolean } | undefined)?.result : undefined);
  }
  const running = new Map<string, Promise<void>>();
  for (;;) {
    let moved = false;
    for (const node of graph.nodes) {
      const nodeState = state.node_states[node.id]!;
      if (nodeState.status !== "pending") continue;
      const edges = incoming.get(node.id)!.map((index) => edgeState[index]);
      if (edges.some((edge) => edge === undefined)) continue;
      moved = true;
      if (edges.some((edge) => edge === "stopped")) {
        nodeState.status = "stopped";
        nodeState.reason = "a node before it failed";
        decide(node);
      } else if (edges.length > 0 && !edges.includes("active")) {
        nodeState.status = "skipped";
        nodeState.reason = "no branch leading to it was taken";
        decide(node);
      } else {
        nodeState.status = "running";
        nodeState.started_at = new Date().toISOString();
        running.set(node.id, execute(node).finally(() => running.delete(node.id)));
      }
    }
    if (moved) await changed();
    if (running.size === 0) {
      if (!moved) break;
      continue;
    }
    await Promise.race(running.values());
  }
  await writes;
  return { state, failure };
}

function asNodeFailure(node: FlowNode, error: unknown): NodeFailure {
  if (error instanceof NodeFailure) return error;
  const label = node.type === "action" ? `${node.id} (${node.action})` : node.id;
  if (error instanceof ApiError) return new NodeFailure(node.id, error.code, `Node ${label} failed: ${error.message}`);
  logger.error({ err: error, node: node.id }, "flow node failed unexpectedly");
  return new NodeFailure(node.id, "internal_error", `Node ${label} failed unexpectedly.`);
}
