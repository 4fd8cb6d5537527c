// A flow's graph (docs/flows.md): nodes, the edges between them, and the checks flows create and
// update run on it. A node is an action call or a small transform:
//   { id, type: "action", action: "music.generate", input: { prompt: "{{vars.topic}}" } }
//   { id, type: "set", values: { title: "{{nodes.a.title}}" } }          variables set
//   { id, type: "map", from: "{{nodes.a.items}}", to: "titles", value: "{{item.title}}" }
//   { id, type: "condition", if: { left: "{{nodes.a.status}}", op: "eq", right: "pending" } }
// An edge { source, target, when? } carries the flow forward; `when` (true or false) on an edge
// leaving a condition picks the branch it belongs to. The graph must be acyclic.
import { z } from "zod";
import type { ValidationIssue } from "../validation/issues.js";

export const NODE_TYPES = ["action", "set", "map", "condition"] as const;
export const CONDITION_OPERATORS = ["eq", "ne", "gt", "gte", "lt", "lte", "contains", "exists", "truthy"] as const;

/** Actions a node may not call: a flow inside a flow, and what needs the HTTP request's own guards. */
export const ACTIONS_REFUSED_IN_NODES: ReadonlySet<string> = new Set(["flows.execute", "account.limits"]);

const nodeId = z.string().trim().min(1).max(100);
const template = z.json();

const actionNode = z.strictObject({ id: nodeId, type: z.literal("action"), label: z.string().max(200).optional(), action: z.string().min(1).max(100), input: z.record(z.string(), template).optional() });
const setNode = z.strictObject({ id: nodeId, type: z.literal("set"), label: z.string().max(200).optional(), values: z.record(z.string().min(1).max(100), template) });
const mapNode = z.strictObject({ id: nodeId, type: z.literal("map"), label: z.string().max(200).optional(), from: template, to: z.string().min(1).max(100), value: template });
const conditionNode = z.strictObject({
  id: nodeId,
  type: z.literal("condition"),
  label: z.string().max(200).optional(),
  if: z.strictObject({ left: template, op: z.enum(CONDITION_OPERATORS), right: template.optional() }),
});

export type ActionNode = z.output<typeof actionNode>;
export type SetNode = z.output<typeof setNode>;
export type MapNode = z.output<typeof mapNode>;
export type ConditionNode = z.output<typeof conditionNode>;
export type FlowNode = ActionNode | SetNode | MapNode | ConditionNode;

const NODE_SCHEMAS = { action: actionNode, set: setNode, map: mapNode, condition: conditionNode } as const;

const edgeSchema = z.strictObject({ id: z.string().max(100).optional(), source: nodeId, target: nodeId, when: z.boolean().optional() });
export type FlowEdge = z.output<typeof edgeSchema>;

export interface FlowGraph {
  nodes: FlowNode[];
  edges: FlowEdge[];
}

/** What the graph check needs to know of the actions: does one exist, and can a node run it now. */
export interface ActionLookup {
  exists(name: string): boolean;
}

function zodIssues(error: z.ZodError, prefix: string): ValidationIssue[] {
  return error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].join("."),
    message: issue.message,
    type: issue.code === "unrecognized_keys" ? "object.unknown" : issue.code === "invalid_type" ? "any.invalid_type" : "any.invalid",
  }));
}

/**
 * Checks a whole graph. Each fault carries its path: `nodes.2.type` (unknown node type),
 * `nodes.2.action` (unknown action), `edges.1.target` (dangling edge), `edges.3` (closes a cycle).
 */
export function checkGraph(rawNodes: unknown, rawEdges: unknown, actions: ActionLookup): { graph: FlowGraph; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const nodes: FlowNode[] = [];
  const edges: FlowEdge[] = [];
  const nodeList = rawNodes === null || rawNodes === undefined ? [] : rawNodes;
  const edgeList = rawEdges === null || rawEdges === undefined ? [] : rawEdges;
  if (!Array.isArray(nodeList)) issues.push({ path: "nodes", message: "Must be an array of nodes.", type: "any.invalid_type" });
  if (!Array.isArray(edgeList)) issues.push({ path: "edges", message: "Must be an array of edges.", type: "any.invalid_type" });
  if (issues.length > 0) return { graph: { nodes, edges }, issues };

  const ids = new Map<string, number>();
  /** Each kept edge's position in the list sent, for the path of a fault. */
  const positions: number[] = [];
  (nodeList as unknown[]).forEach((raw, index) => {
    const type = raw !== null && typeof raw === "object" ? (raw as { type?: unknown }).type : undefined;
    if (typeof type !== "string" || !(NODE_TYPES as readonly string[]).includes(type)) {
      issues.push({ path: `nodes.${index}.type`, message: `Unknown node type ${JSON.stringify(type ?? null)}; a node is one of ${NODE_TYPES.join(", ")}.`, type: "any.only" });
      return;
    }
    const parsed = NODE_SCHEMAS[type as keyof typeof NODE_SCHEMAS].safeParse(raw);
    if (!parsed.success) {
      issues.push(...zodIssues(parsed.error, `nodes.${index}`));
      return;
    }
    const node = parsed.data;
    if (ids.has(node.id)) issues.push({ path: `nodes.${index}.id`, message: `Node id '${node.id}' is used twice.`, type: "any.duplicate" });
    ids.set(node.id, index);
    if (node.type === "action") {
      if (!actions.exists(node.action)) {
        issues.push({ path: `nodes.${index}.action`, message: `Unknown action '${node.action}'.`, type: "any.only" });
        return;
      }
      if (ACTIONS_REFUSED_IN_NODES.has(node.action)) {
        issues.push({ path: `nodes.${index}.action`, message: `${node.action} cannot run inside a flow.`, type: "any.invalid" });
        return;
      }
    }
    nodes.push(node);
  });

  (edgeList as unknown[]).forEach((raw, index) => {
    const parsed = edgeSchema.safeParse(raw);
    if (!parsed.success) {
      issues.push(...zodIssues(parsed.error, `edges.${index}`));
      return;
    }
    const edge = parsed.data;
    let dangling = false;
    for (const end of ["source", "target"] as const) {
      if (!ids.has(edge[end])) {
        issues.push({ path: `edges.${index}.${end}`, message: `No node '${edge[end]}' in this flow.`, type: "any.invalid" });
        dangling = true;
      }
    }
    if (!dangling && edge.source === edge.target) {
      issues.push({ path: `edges.${index}.target`, message: `Edge from '${edge.source}' to itself makes a cycle.`, type: "graph.cycle" });
      return;
    }
    if (!dangling) {
      edges.push({ ...edge, id: edge.id ?? String(index) });
      positions.push(index);
    }
  });
  if (issues.length > 0) return { graph: { nodes, edges }, issues };

  const cycleAt = findCycleEdge(nodes, edges);
  if (cycleAt !== undefined) {
    const edge = edges[cycleAt]!;
    issues.push({ path: `edges.${positions[cycleAt]!}.target`, message: `The edge from '${edge.source}' to '${edge.target}' closes a cycle; a flow must be acyclic.`, type: "graph.cycle" });
  }
  return { graph: { nodes, edges }, issues };
}

/** The index (in `edges`) of an edge that closes a cycle, or undefined for an acyclic graph. */
function findCycleEdge(nodes: readonly FlowNode[], edges: readonly FlowEdge[]): number | undefined {
  const outgoing = new Map<string, number[]>(nodes.map((node) => [node.id, []]));
  edges.forEach((edge, index) => outgoing.get(edge.source)!.push(index));
  const state = new Map<string, "open" | "done">();
  const visit = (id: string): number | undefined => {
    state.set(id, "open");
    for (const index of outgoing.get(id) ?? []) {
      const target = edges[index]!.target;
      if (state.get(target) === "open") return index;
      if (!state.has(target)) {
        const found = visit(target);
        if (found !== undefined) return found;
      }
    }
    state.set(id, "done");
    return undefined;
  };
  for (const node of nodes) {
    if (state.has(node.id)) continue;
    const found = visit(node.id);
    if (found !== undefined) return found;
  }
  return undefined;
}
