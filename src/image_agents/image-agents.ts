// Image agents (catalog 4.7: image_agents.list / create / update / delete).
//
// An image agent is an `agents` record (contract 2.2: "agents are image and video generation
// agents") whose agent_type is `image`: the same agent_id runs in images.generate, is served by
// GET /api/v1/agents, and its writes emit the contract's `agent.created` / `agent.updated` /
// `agent.deleted` through the resource service (src/resources/service.ts), in the action's
// transaction. These actions only ever see and touch image agents: another type of agent is 404
// here, another workspace's agent 403 (loadOwned). `agent_model`, when given, must be an image
// model this deployment can run (src/providers/catalog.ts). docs/generation.md has the rules.
// image_agents.generate (an image generation job, as images.generate) and image_agents.status are in actions/.
import { jsonObject, modelRef, name, prompt, text } from "../actions/catalog/define.js";
import { agents } from "../agents/index.js";
import { notFound } from "../errors/api-error.js";
import type { GraphQLContext } from "../graphql/context.js";
import type { Tx } from "../db/transaction.js";
import { loadOwned } from "../resources/service.js";
import { fullSelection, presentRecord } from "../resources/selection.js";
import { recordSchema } from "../resources/record-schema.js";
import { validationFailed } from "../validation/issues.js";

export const IMAGE_AGENT_TYPE = "image";

/** The writable fields, as the catalog names them (create requires agent_name). */
export const imageAgentFields = {
  agent_name: name(),
  agent_description: text(2000).optional(),
  agent_model: modelRef().optional(),
  agent_prompt_template: prompt().optional(),
  agent_settings: jsonObject().optional(),
};

/** What the actions answer: the agents resource's own record. */
export const imageAgentRecord = recordSchema(agents);

export const imageAgentQuery = () => ({ select: fullSelection(agents) });

export const presentImageAgent = (row: Record<string, unknown>) => presentRecord(agents, row);

/** The image models this deployment can run: a given agent_model must be one of them. */
export function checkImageModel(graphql: GraphQLContext, model: string | undefined): void {
  if (model === undefined) return;
  const usable = graphql.services.providers.catalog().filter((item) => item.capability === "image").map((item) => item.ref);
  if (usable.includes(model)) return;
  throw validationFailed([{
    path: "agent_model",
    message: usable.length > 0
      ? `'${model}' is not an image model of this deployment; use one of: ${usable.join(", ")}.`
      : `'${model}' is not an image model of this deployment, which has none configured; leave agent_model out.`,
    type: "any.only",
    allowed: usable,
  }]);
}

/** An image agent the caller's workspace owns: 404 when missing or not an image agent, 403 when another workspace's. */
export async function loadImageAgent(tx: Tx, graphql: GraphQLContext, agentId: string): Promise<void> {
  const agent = await loadOwned(tx, graphql, agents, agentId, { select: { agent_type: true } });
  if (agent.agent_type !== IMAGE_AGENT_TYPE) throw notFound("image agent", agentId, "agent_id");
}
