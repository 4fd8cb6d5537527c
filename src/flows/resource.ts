// Flows (automation flows with nodes, edges and variables) and their runs (contract 2.2).
import { catalogLookup } from "./action-lookup.js";
import { z } from "zod";
import { defineResource } from "../registry/resource.js";
import { validationFailed } from "../validation/issues.js";
import { checkGraph } from "./graph.js";

export const FLOW_STATUSES = ["draft", "active", "archived"] as const;

export const flows = defineResource({
  name: "flows",
  kind: "flow",
  model: "Flow",
  idField: "flow_id",
  idPrefix: "flow",
  scopeGroup: "flows",
  createdAtField: "created_at",
  routes: ["list", "get", "create", "update", "delete"],
  bulk: true,
  sortable: ["created_at", "updated_at", "name", "usage_count", "last_executed_at"],
  filterable: ["status", "is_template", "is_public", "template_category", "created_at"],
  searchable: ["name", "description"],
  heavy: ["nodes", "edges"],
  internal: ["workspace_id"],
  serviceSet: ["created_at", "updated_at", "usage_count", "last_executed_at"],
  fieldRules: {
    name: z.string().trim().min(1).max(200),
    description: z.string().max(10_000),
    status: z.enum(FLOW_STATUSES),
    template_category: z.string().max(100),
  },
  children: { executions: { resource: "flow_executions", relation: "executions" } },
  // The graph is checked whole (docs/flows.md): unknown node types or actions, dangling edges and
  // cycles are a 422 naming the fault's path (nodes.2.action, edges.1.target).
  async beforeWrite(_tx, { mode, input, existing }) {
    if (mode === "delete" || !input || (input.nodes === undefined && input.edges === undefined)) return;
    const nodes = input.nodes !== undefined ? input.nodes : existing?.nodes;
    const edges = input.edges !== undefined ? input.edges : existing?.edges;
    const { issues } = checkGraph(nodes, edges, catalogLookup);
    if (issues.length > 0) throw validationFailed(issues);
  },
  description: "An automation flow: nodes, edges and variables.",
});

/** Written by the flows.execute action; read-only as a resource. */
export const flowExecutions = defineResource({
  name: "flow_executions",
  kind: "flow_execution",
  model: "FlowExecution",
  idField: "execution_id",
  idPrefix: "flow_execution",
  scopeGroup: "flows",
  createdAtField: "created_at",
  routes: ["list", "get"],
  sortable: ["created_at", "completed_at", "total_credits_consumed"],
  filterable: ["flow_id", "status", "created_at"],
  searchable: [],
  heavy: ["node_states", "context", "input_variables", "execution_path"],
  internal: ["workspace_id"],
  serviceSet: ["created_at", "completed_at", "status", "total_credits_consumed"],
  references: { flow_id: { resource: "flows", relation: "flow" } },
  description: "One run of a flow: status, node states, execution path and credits consumed.",
});
