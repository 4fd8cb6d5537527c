// voice_projects.update (catalog 4.7): the fields of create, project_id required; changes only
// the fields sent.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, name } from "../../actions/catalog/define.js";
import { loadOwned } from "../../resources/service.js";
import { presentVoiceProject, voiceProjectData, voiceProjectFields, voiceProjectRecord, voiceProjects } from "../projects.js";

export default defineAction({
  name: "voice_projects.update",
  method: "POST",
  scopes: ["voices:write"],
  credits: false,
  weight: 1,
  purpose: "update a project",
  input: z.strictObject({ ...voiceProjectFields, project_id: id(), project_name: name().optional() }),
  output: voiceProjectRecord,
  async example(setup) {
    const project = await setup.action("voice_projects.create", { project_name: "Audiobook chapter 1" });
    return { project_id: project.project_id, project_target_language: "fr" };
  },
  async run({ tx, graphql }, input) {
    await loadOwned(tx, graphql, voiceProjects, input.project_id, { select: { project_id: true } });
    const row = await tx.voiceProject.update({ where: { project_id: input.project_id }, data: voiceProjectData(input) });
    return presentVoiceProject(row);
  },
});
