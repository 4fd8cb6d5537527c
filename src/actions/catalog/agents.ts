// Agents (catalog 4.3).
import { z } from "zod";
import { defineFamily, flag, id, jsonObject, limit, prompt } from "./define.js";

export const AGENTS_ACTIONS = defineFamily("agents", [
  {
    name: "agents.execute",
    method: "POST",
    scopes: ["agents:execute"],
    credits: true,
    emits: ["agent_execution.completed"],
    input: z.strictObject({
      agent_id: id(),
      variables: jsonObject().optional(),
      custom_prompt: prompt().optional(),
      stream: flag().optional(),
      metadata: jsonObject().optional(),
    }),
    price: { credits: 4, per: "call", note: "one run of an image or video agent, priced as one image" },
    weight: 5,
    purpose: "run any configured agent with its prompt template and variables",
  },
  {
    name: "agents.executions",
    method: "GET",
    scopes: ["agents:read"],
    credits: false,
    input: z.strictObject({
      agent_id: id().optional(),
      limit: limit().optional(),
    }),
    weight: 1,
    purpose: "history of agent runs with outputs",
  },
]);
