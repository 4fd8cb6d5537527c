// app_screenshots.create (catalog 4.7): a new, empty project (no prompt, references, agent or
// screens: app_screenshots.update fills them).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { name } from "../../actions/catalog/define.js";
import { newId } from "../../ids.js";
import { presentProject, projectRecord } from "../projects.js";

export default defineAction({
  name: "app_screenshots.create",
  method: "POST",
  scopes: ["videos:write"],
  credits: false,
  weight: 1,
  purpose: "create an app-screenshot project",
  input: z.strictObject({ project_name: name() }),
  output: projectRecord,
  async example() {
    return { project_name: "Habit tracker store page" };
  },
  async run({ tx, graphql }, input) {
    const row = await tx.appScreenshotProject.create({
      data: { project_id: newId("app_screenshot_project"), workspace_id: graphql.auth.workspaceId, project_name: input.project_name },
    });
    return presentProject(row);
  },
});
