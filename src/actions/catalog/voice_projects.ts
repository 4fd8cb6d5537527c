// Voice projects (catalog 4.7): bulk text-to-voice. `voice_projects.update` takes "same fields as
// create"; there `project_id` names the project and is required.
import { z } from "zod";
import { LONG_TEXT, defineFamily, flag, id, json, label, language, name, text, timestamp } from "./define.js";

const projectFields = {
  project_id: id().optional(),
  project_name: name(),
  project_status: label().optional(),
  project_original_language: language().optional(),
  project_target_language: language().optional(),
  project_main_voice_details: json().optional(),
  original_text_value: text(LONG_TEXT).optional(),
  original_text_last_edit: timestamp().optional(),
  text_segmented_value: json().optional(),
  translated_text_value: text(LONG_TEXT).optional(),
  translated_text_last_edit: timestamp().optional(),
  project_published: flag().optional(),
};

export const VOICE_PROJECTS_ACTIONS = defineFamily("voice_projects", [
  {
    name: "voice_projects.list",
    method: "GET",
    scopes: ["voices:read"],
    credits: false,
    input: z.strictObject({ project_id: id().optional() }),
    weight: 1,
    purpose: "bulk text-to-voice projects",
  },
  {
    name: "voice_projects.create",
    method: "POST",
    scopes: ["voices:write"],
    credits: false,
    input: z.strictObject(projectFields),
    weight: 1,
    purpose: "create a bulk text-to-voice project",
  },
  {
    name: "voice_projects.update",
    method: "POST",
    scopes: ["voices:write"],
    credits: false,
    input: z.strictObject({
      ...projectFields,
      project_id: id(),
      project_name: name().optional(),
    }),
    weight: 1,
    purpose: "update a project",
  },
  {
    name: "voice_projects.delete",
    method: "POST",
    scopes: ["voices:delete"],
    credits: false,
    input: z.strictObject({ project_id: id() }),
    weight: 1,
    purpose: "delete a project",
  },
]);
