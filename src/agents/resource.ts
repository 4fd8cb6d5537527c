// Agents (image and video generation agents) and their run history (contract 2.2).
import { z } from "zod";
import { defineResource } from "../registry/resource.js";

export const agents = defineResource({
  name: "agents",
  kind: "agent",
  model: "Agent",
  idField: "agent_id",
  idPrefix: "agent",
  scopeGroup: "agents",
  createdAtField: "created_at",
  routes: ["list", "get", "create", "update", "delete"],
  bulk: true,
  sortable: ["created_at", "updated_at", "agent_name"],
  filterable: ["agent_type", "agent_model", "is_default", "created_at"],
  searchable: ["agent_name", "agent_description"],
  heavy: [],
  internal: ["workspace_id"],
  serviceSet: ["created_at", "updated_at"],
  fieldRules: {
    agent_name: z.string().trim().min(1).max(200),
    agent_description: z.string().max(10_000),
    agent_type: z.string().trim().min(1).max(64),
    agent_model: z.string().max(200),
  },
  children: { executions: { resource: "agent_executions", relation: "executions" } },
  description: "An image or video generation agent: a model, a prompt template and settings.",
});

/** Written by the agents.execute action; read-only as a resource. */
export const agentExecutions = defineResource({
  name: "agent_executions",
  kind: "agent_execution",
  model: "AgentExecution",
  idField: "execution_id",
  idPrefix: "agent_execution",
  scopeGroup: "agents",
  createdAtField: "created_at",
  routes: ["list", "get"],
  sortable: ["created_at"],
  filterable: ["agent_id", "created_at"],
  searchable: ["prompt_used"],
  heavy: ["result", "variables_used", "execution_metadata"],
  internal: ["workspace_id"],
  serviceSet: ["created_at", "completed_at", "status", "credits_consumed"],
  references: { agent_id: { resource: "agents", relation: "agent" } },
  description: "One run of an agent: prompt, variables, result and credits.",
});
