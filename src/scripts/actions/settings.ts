// scripts.settings (catalog 4.8): the script's models, default voice and structure; send only what
// changes. `model_ref` / `quick_model_ref` must be text models of this deployment (scripts.models),
// `default_voice_ref` a voice the workspace can use here (scripts.voices); `default_voice_name`
// picks a voice by its name when no ref is sent (both sent must name the same voice), and is
// always stored as the chosen voice's name. Logged as one `meta` entry (undo_change undoes it).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, label, modelRef, name, request } from "../../actions/catalog/define.js";
import { voiceRef } from "../fields.js";
import { validationFailed } from "../../validation/issues.js";
import { openForWrite } from "../document.js";
import { assertTextModel, modelFor, requireVoice, voiceByName } from "../refs.js";
import { echoedRequest } from "../summary.js";
import { sameJson } from "../paragraphs.js";

const SETTINGS = ["model_ref", "quick_model_ref", "default_voice_ref", "default_voice_name", "structure"] as const;

export default defineAction({
  name: "scripts.settings",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    model_ref: modelRef().optional(),
    quick_model_ref: modelRef().optional(),
    default_voice_ref: voiceRef().optional(),
    default_voice_name: name().optional(),
    structure: label().optional(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "models, default voice and structure",
  output: z.object({
    object: z.literal("script_settings"),
    script_id: z.string(),
    settings: z
      .object({
        model_ref: z.string().nullable().describe("Whole-document passes; null: the deployment's default."),
        quick_model_ref: z.string().nullable().describe("Per-paragraph edits; null: the deployment's default."),
        default_voice_ref: z.string().nullable().describe("The voice of lines whose paragraph and speaker name none."),
        default_voice_name: z.string().nullable(),
        structure: z.string().nullable(),
      })
      .describe("As stored on the script."),
    effective: z
      .object({ model_ref: z.string().nullable(), quick_model_ref: z.string().nullable() })
      .describe("The models the script's passes run on now: its own, or the deployment's defaults (scripts.models)."),
    changed: z.array(z.string()).describe("The settings this call changed."),
    edit_id: z.string().nullable().describe("The edit log entry (null when nothing changed)."),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    return { script_id: script.script_id, structure: "listicle", default_voice_ref: "local/en-us" };
  },
  async run({ tx, graphql }, input) {
    const providers = graphql.services.providers;
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.settings");
    const wanted: Partial<Record<(typeof SETTINGS)[number], string>> = {};
    if (input.model_ref !== undefined) {
      assertTextModel(providers, input.model_ref, "model_ref");
      wanted.model_ref = input.model_ref;
    }
    if (input.quick_model_ref !== undefined) {
      assertTextModel(providers, input.quick_model_ref, "quick_model_ref");
      wanted.quick_model_ref = input.quick_model_ref;
    }
    if (input.default_voice_ref !== undefined || input.default_voice_name !== undefined) {
      const voice = input.default_voice_ref !== undefined ? await requireVoice(tx, graphql, input.default_voice_ref, "default_voice_ref") : await voiceByName(tx, graphql, input.default_voice_name!, "default_voice_name");
      if (input.default_voice_ref !== undefined && input.default_voice_name !== undefined && input.default_voice_name.toLowerCase() !== voice.name.toLowerCase()) {
        throw validationFailed([{ path: "default_voice_name", message: `The voice '${voice.voice_ref}' is named '${voice.name}', not '${input.default_voice_name}'. Send one of default_voice_ref and default_voice_name.`, type: "any.invalid" }]);
      }
      wanted.default_voice_ref = voice.voice_ref;
      wanted.default_voice_name = voice.name;
    }
    if (input.structure !== undefined) wanted.structure = input.structure;

    const current = write.script;
    const changed = SETTINGS.filter((field) => field in wanted && !sameJson(current[field], wanted[field]));
    let editId: string | null = null;
    let script;
    if (changed.length) {
      const values = Object.fromEntries(changed.map((field) => [field, wanted[field]!]));
      await tx.script.update({ where: { script_id: input.script_id }, data: values });
      editId = await write.edit({ kind: "meta", before: Object.fromEntries(changed.map((field) => [field, current[field]])), after: values });
      script = await write.done();
    } else script = await write.unchanged();
    return {
      object: "script_settings" as const,
      script_id: input.script_id,
      settings: Object.fromEntries(SETTINGS.map((field) => [field, script[field]])) as Record<(typeof SETTINGS)[number], string | null>,
      effective: { model_ref: modelFor(script, "document", providers), quick_model_ref: modelFor(script, "quick", providers) },
      changed: [...changed],
      edit_id: editId,
      revision: script.revision,
      request: input.request ?? null,
    };
  },
});
