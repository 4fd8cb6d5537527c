// voice_projects.delete (catalog 4.7): removes the project.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id } from "../../actions/catalog/define.js";
import { loadOwned } from "../../resources/service.js";
import { voiceProjects } from "../projects.js";

export default defineAction({
  name: "voice_projects.delete",
  method: "POST",
  scopes: ["voices:delete"],
  credits: false,
  weight: 1,
  purpose: "delete a project",
  input: z.strictObject({ project_id: id() }),
  output: z.object({ object: z.literal("voice_project"), project_id: z.string(), deleted: z.literal(true) }),
  async example(setup) {
    const project = await setup.action("voice_projects.create", { project_name: "Audiobook chapter 1" });
    return { project_id: project.project_id };
  },
  async run({ tx, graphql }, input) {
    await loadOwned(tx, graphql, voiceProjects, input.project_id, { select: { project_id: true } });
    await tx.voiceProject.delete({ where: { project_id: input.project_id } });
    return { object: "voice_project" as const, project_id: input.project_id, deleted: true as const };
  },
});
