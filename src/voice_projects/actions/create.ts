// voice_projects.create (catalog 4.7): a new project with the fields sent. A `project_id` in the
// body is accepted, as the catalog lists it, and ignored: the service sets identity (contract 2.1.2).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { newId } from "../../ids.js";
import { presentVoiceProject, voiceProjectData, voiceProjectFields, voiceProjectRecord } from "../projects.js";

export default defineAction({
  name: "voice_projects.create",
  method: "POST",
  scopes: ["voices:write"],
  credits: false,
  weight: 1,
  purpose: "create a bulk text-to-voice project",
  input: z.strictObject(voiceProjectFields),
  output: voiceProjectRecord,
  async example() {
    return { project_name: "Audiobook chapter 1", project_original_language: "en", original_text_value: "Once upon a time." };
  },
  async run({ tx, graphql }, input) {
    const row = await tx.voiceProject.create({
      data: { ...voiceProjectData(input), project_name: input.project_name, project_id: newId("voice_project"), workspace_id: graphql.auth.workspaceId },
    });
    return presentVoiceProject(row);
  },
});
