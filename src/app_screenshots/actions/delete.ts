// app_screenshots.delete (catalog 4.7): removes the project and its screens.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id } from "../../actions/catalog/define.js";
import { loadOwned } from "../../resources/service.js";
import { appScreenshotProjects } from "../projects.js";

export default defineAction({
  name: "app_screenshots.delete",
  method: "POST",
  scopes: ["videos:delete"],
  credits: false,
  weight: 1,
  purpose: "delete a project",
  input: z.strictObject({ project_id: id() }),
  output: z.object({ object: z.literal("app_screenshot_project"), project_id: z.string(), deleted: z.literal(true) }),
  async example(setup) {
    const project = await setup.action("app_screenshots.create", { project_name: "Habit tracker store page" });
    return { project_id: project.project_id };
  },
  async run({ tx, graphql }, input) {
    await loadOwned(tx, graphql, appScreenshotProjects, input.project_id, { select: { project_id: true } });
    await tx.appScreenshotProject.delete({ where: { project_id: input.project_id } });
    return { object: "app_screenshot_project" as const, project_id: input.project_id, deleted: true as const };
  },
});
