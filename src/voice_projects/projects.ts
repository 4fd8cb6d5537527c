// Voice projects (catalog 4.7: voice_projects.list / create / update / delete): bulk
// text-to-voice projects, with exactly the catalog's fields. The original and translated texts are
// whole documents (≤ 100,000 characters each); the segmented text and the main voice's details are
// JSON the dashboard shapes, bounded to 200,000 characters of JSON each; project_status is a short
// label of the caller's (default `draft`). create takes the fields of update, project_id included
// (catalog), but the service sets the id (contract 2.1.2). Not a contract resource, so the actions
// are its whole API, and the contract lists no record events for it: the actions emit only
// action.completed. docs/generation.md has the rules.
import { z } from "zod";
import { LONG_TEXT, flag, id, json, label, language, name, text, timestamp } from "../actions/catalog/define.js";
import { Prisma, type VoiceProject } from "../generated/prisma/client.js";
import type { OwnedTarget } from "../resources/service.js";

/** The most JSON text project_main_voice_details or text_segmented_value may hold. */
export const MAX_JSON_FIELD_CHARS = 200_000;

export const voiceProjects: OwnedTarget = { model: "VoiceProject", kind: "voice_project", idField: "project_id" };

const boundedJson = () =>
  json().refine((value) => JSON.stringify(value).length <= MAX_JSON_FIELD_CHARS, { message: `At most ${MAX_JSON_FIELD_CHARS} characters of JSON.` });

/** The catalog's fields, as create takes them (update: the same, project_id required). */
export const voiceProjectFields = {
  project_id: id().optional(),
  project_name: name(),
  project_status: label().optional(),
  project_original_language: language().optional(),
  project_target_language: language().optional(),
  project_main_voice_details: boundedJson().optional(),
  original_text_value: text(LONG_TEXT).optional(),
  original_text_last_edit: timestamp().optional(),
  text_segmented_value: boundedJson().optional(),
  translated_text_value: text(LONG_TEXT).optional(),
  translated_text_last_edit: timestamp().optional(),
  project_published: flag().optional(),
};

type FieldsInput = Partial<z.output<z.ZodObject<typeof voiceProjectFields>>>;

/** Column values for the fields sent (a field left out stays as it is). */
export function voiceProjectData(input: FieldsInput) {
  // A JSON field sent as null clears it (SQL NULL).
  const jsonValue = (value: unknown) => (value === undefined ? undefined : value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue));
  const date = (value: string | undefined) => (value === undefined ? undefined : new Date(value));
  return {
    project_name: input.project_name,
    project_status: input.project_status,
    project_original_language: input.project_original_language,
    project_target_language: input.project_target_language,
    project_main_voice_details: jsonValue(input.project_main_voice_details),
    original_text_value: input.original_text_value,
    original_text_last_edit: date(input.original_text_last_edit),
    text_segmented_value: jsonValue(input.text_segmented_value),
    translated_text_value: input.translated_text_value,
    translated_text_last_edit: date(input.translated_text_last_edit),
    project_published: input.project_published,
  };
}

type Json = z.output<ReturnType<typeof z.json>>;

const when = () => z.iso.datetime({ offset: true });

export const voiceProjectRecord = z
  .object({
    object: z.literal("voice_project"),
    project_id: z.string(),
    project_name: z.string(),
    project_status: z.string(),
    project_original_language: z.string().nullable(),
    project_target_language: z.string().nullable(),
    project_main_voice_details: z.json(),
    original_text_value: z.string().nullable(),
    original_text_last_edit: when().nullable(),
    text_segmented_value: z.json(),
    translated_text_value: z.string().nullable(),
    translated_text_last_edit: when().nullable(),
    project_published: z.boolean(),
    created_at: when(),
    updated_at: when(),
  })
  .meta({ id: "VoiceProject", description: "A bulk text-to-voice project." });

export function presentVoiceProject(row: VoiceProject): z.input<typeof voiceProjectRecord> {
  return {
    object: "voice_project",
    project_id: row.project_id,
    project_name: row.project_name,
    project_status: row.project_status,
    project_original_language: row.project_original_language,
    project_target_language: row.project_target_language,
    project_main_voice_details: row.project_main_voice_details as Json,
    original_text_value: row.original_text_value,
    original_text_last_edit: row.original_text_last_edit?.toISOString() ?? null,
    text_segmented_value: row.text_segmented_value as Json,
    translated_text_value: row.translated_text_value,
    translated_text_last_edit: row.translated_text_last_edit?.toISOString() ?? null,
    project_published: row.project_published,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
