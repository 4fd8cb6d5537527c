// image_agents.delete (catalog 4.7): removes the agent and emits agent.deleted, as
// DELETE /api/v1/agents/{id} does: its generations stay with agent_id cleared, its runs
// (agent_executions) go with it, and an app-screenshot project that used it loses its agent_id.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id } from "../../actions/catalog/define.js";
import { agents } from "../../agents/index.js";
import { deleteRecordIn } from "../../resources/service.js";
import { loadImageAgent } from "../image-agents.js";

export default defineAction({
  name: "image_agents.delete",
  method: "POST",
  scopes: ["agents:delete"],
  credits: false,
  weight: 1,
  purpose: "delete an image agent",
  input: z.strictObject({ agent_id: id() }),
  output: z.object({ object: z.literal("agent"), agent_id: z.string(), deleted: z.literal(true) }),
  async example(setup) {
    const agent = await setup.action("image_agents.create", { agent_name: "Poster painter" });
    return { agent_id: agent.agent_id };
  },
  async run({ tx, graphql }, input) {
    await loadImageAgent(tx, graphql, input.agent_id);
    await deleteRecordIn(tx, graphql, agents, input.agent_id);
    return { object: "agent" as const, agent_id: input.agent_id, deleted: true as const };
  },
});
