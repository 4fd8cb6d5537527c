// image_agents.create (catalog 4.7): a new `agents` record of type image; emits agent.created.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { agents } from "../../agents/index.js";
import { createRecordIn } from "../../resources/service.js";
import { IMAGE_AGENT_TYPE, checkImageModel, imageAgentFields, imageAgentQuery, imageAgentRecord, presentImageAgent } from "../image-agents.js";

export default defineAction({
  name: "image_agents.create",
  method: "POST",
  scopes: ["agents:write"],
  credits: false,
  weight: 1,
  purpose: "create an image agent",
  input: z.strictObject(imageAgentFields),
  output: imageAgentRecord,
  async example() {
    return { agent_name: "Poster painter", agent_prompt_template: "A bold poster of {{subject}}" };
  },
  async check({ graphql }, input) {
    checkImageModel(graphql, input.agent_model);
  },
  async run({ tx, graphql }, input) {
    const row = await createRecordIn(tx, graphql, agents, { ...input, agent_type: IMAGE_AGENT_TYPE }, imageAgentQuery());
    return presentImageAgent(row);
  },
});
