// What agents.execute runs (docs/generation.md, "Agents"): an agent of the caller's workspace, its
// prompt template rendered with the call's variables (src/agents/prompt.ts, Liquid), read
// by the deployment's text model with the agent's name and description as its brief. The answer
// is text: for an image or video agent, the prompt it would draw from, written out in full.
import type { GraphQLContext } from "../graphql/context.js";
import { loadOwned } from "../resources/service.js";
import { agentPrompt } from "./prompt.js";
import { agents } from "./resource.js";

export const EXECUTION_PRICE = 4;

export interface AgentRun {
  agentId: string;
  system: string;
  prompt: string;
}

/** The agent and its filled prompt: 404 / 403 for the agent, 422 naming missing variables. */
export async function prepareRun(graphql: GraphQLContext, input: { agent_id: string; variables?: Record<string, unknown>; custom_prompt?: string }): Promise<AgentRun> {
  const agent = await loadOwned(graphql.prisma, graphql, agents, input.agent_id, { select: { agent_name: true, agent_type: true, agent_description: true, agent_prompt_template: true } }, "read");
  const prompt = agentPrompt({ template: agent.agent_prompt_template as string | null, variables: input.variables ?? {}, customPrompt: input.custom_prompt });
  const description = typeof agent.agent_description === "string" && agent.agent_description.trim() ? ` ${agent.agent_description.trim()}` : "";
  const system = `You are "${String(agent.agent_name)}", a ${String(agent.agent_type)} agent.${description} Answer the request directly, with no preamble.`;
  return { agentId: input.agent_id, system, prompt };
}
