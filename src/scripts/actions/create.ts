// scripts.create (catalog 4.8): an empty script with its one speaker, the base speaker (`speaker`
// names the narrator; "Narrator" when not given). A script created without `voice_ref` gets the
// deployment's default voice for its language as its document default (docs/scripts.md, "Default
// voice"), so scripts.voice with no voice named voices every paragraph.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { label, language, modelRef, name, prompt, text } from "../../actions/catalog/define.js";
import { voiceRef, targetDurationMs } from "../fields.js";
import { newId } from "../../ids.js";
import { defaultVoiceRef } from "../../providers/voices.js";
import { presentScript, scriptSummaryShape } from "../summary.js";
import { presentSpeaker, speakerShape } from "../present.js";

/** The base speaker's name when scripts.create names none. */
export const DEFAULT_SPEAKER = "Narrator";

export default defineAction({
  name: "scripts.create",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    title: text(500).optional(),
    topic: prompt().optional(),
    language: language().optional(),
    format: label().optional(),
    structure: label().optional(),
    target_duration_ms: targetDurationMs().optional(),
    tone: text(500).optional(),
    audience: text(500).optional(),
    speaker: name().optional(),
    voice_ref: voiceRef().optional(),
    model_ref: modelRef().optional(),
  }),
  weight: 1,
  purpose:
    "creates an empty script and returns its id; a script always has one speaker (`speaker` names the narrator)",
  output: scriptSummaryShape.extend({ speakers: z.array(speakerShape).describe("The cast: the base speaker alone.") }),
  async example() {
    return { title: "Why cats purr", language: "en", speaker: "Ada" };
  },
  async run({ tx, graphql }, input) {
    const scriptId = newId("script");
    const script = await tx.script.create({
      data: {
        script_id: scriptId,
        workspace_id: graphql.auth.workspaceId,
        title: input.title ?? null,
        topic: input.topic ?? null,
        language: input.language ?? null,
        format: input.format ?? null,
        structure: input.structure ?? null,
        target_duration_ms: input.target_duration_ms ?? null,
        tone: input.tone ?? null,
        audience: input.audience ?? null,
        default_voice_ref: input.voice_ref ?? defaultVoiceRef(graphql.services.providers.model("speech")?.provider, input.language),
        model_ref: input.model_ref ?? null,
      },
    });
    const base = await tx.scriptSpeaker.create({
      data: { speaker_id: newId("script_speaker"), script_id: scriptId, position: 0, name: input.speaker ?? DEFAULT_SPEAKER, is_base: true },
    });
    return { ...presentScript(script), speakers: [presentSpeaker(base)] };
  },
});
