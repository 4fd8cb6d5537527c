// app_screenshots.update (catalog 4.7): changes only the fields sent. `screens` replaces the list
// (ids kept for screens sent with theirs); `agent_id` must name an image agent of the workspace,
// or be null to clear it.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, name, prompt } from "../../actions/catalog/define.js";
import { agents } from "../../agents/index.js";
import { loadOwned } from "../../resources/service.js";
import { validationFailed } from "../../validation/issues.js";
import { IMAGE_AGENT_TYPE } from "../../image_agents/index.js";
import { appScreenshotProjects, globalReferencesInput, nextScreens, presentProject, projectRecord, screensInput } from "../projects.js";

export default defineAction({
  name: "app_screenshots.update",
  method: "POST",
  scopes: ["videos:write"],
  credits: false,
  weight: 1,
  purpose: "update a project",
  input: z.strictObject({
    project_id: id(),
    project_name: name().optional(),
    global_prompt: prompt().optional(),
    global_references: globalReferencesInput().optional(),
    agent_id: id().nullable().optional(),
    screens: screensInput().optional(),
  }),
  output: projectRecord,
  async example(setup) {
    const project = await setup.action("app_screenshots.create", { project_name: "Habit tracker store page" });
    return { project_id: project.project_id, global_prompt: "Clean pastel UI", screens: [{ title: "Today", prompt: "The daily checklist" }] };
  },
  async run({ tx, graphql }, input) {
    const project = await loadOwned(tx, graphql, appScreenshotProjects, input.project_id, { select: { screens: true } });
    if (input.agent_id) {
      const agent = await loadOwned(tx, graphql, agents, input.agent_id, { select: { agent_type: true } });
      if (agent.agent_type !== IMAGE_AGENT_TYPE) {
        throw validationFailed([{ path: "agent_id", message: `This is a ${String(agent.agent_type)} agent; a project's screens are drawn by an image agent.`, type: "any.invalid" }]);
      }
    }
    const row = await tx.appScreenshotProject.update({
      where: { project_id: input.project_id },
      data: {
        project_name: input.project_name,
        global_prompt: input.global_prompt,
        global_references: input.global_references,
        agent_id: input.agent_id,
        screens: input.screens && nextScreens(project.screens as Parameters<typeof nextScreens>[0], input.screens),
      },
    });
    return presentProject(row);
  },
});
