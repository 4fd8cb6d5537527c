// image_agents.update (catalog 4.7): changes only the fields sent; emits agent.updated.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, name } from "../../actions/catalog/define.js";
import { agents } from "../../agents/index.js";
import { updateRecordIn } from "../../resources/service.js";
import { checkImageModel, imageAgentFields, imageAgentQuery, imageAgentRecord, loadImageAgent, presentImageAgent } from "../image-agents.js";

export default defineAction({
  name: "image_agents.update",
  method: "POST",
  scopes: ["agents:write"],
  credits: false,
  weight: 1,
  purpose: "update an image agent",
  input: z.strictObject({ agent_id: id(), ...imageAgentFields, agent_name: name().optional() }),
  output: imageAgentRecord,
  async example(setup) {
    const agent = await setup.action("image_agents.create", { agent_name: "Poster painter" });
    return { agent_id: agent.agent_id, agent_description: "Bold flat posters" };
  },
  async check({ graphql }, input) {
    checkImageModel(graphql, input.agent_model);
  },
  async run({ tx, graphql }, input) {
    const { agent_id: agentId, ...changes } = input;
    await loadImageAgent(tx, graphql, agentId);
    return presentImageAgent(await updateRecordIn(tx, graphql, agents, agentId, changes, imageAgentQuery()));
  },
});
