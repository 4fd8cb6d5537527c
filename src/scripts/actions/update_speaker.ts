// scripts.update_speaker (catalog 4.10): renames a speaker (`new_name`, unique in the script,
// ignoring case) or changes its persona (an empty persona clears it). The speaker is named by
// `speaker_id` or by its current `name`. Its lines, voice, face and id are untouched. Logged as
// `speaker.update` with the old and new values.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, name, request, requireOneOf, text } from "../../actions/catalog/define.js";
import { validationFailed } from "../../validation/issues.js";
import { openForWrite } from "../document.js";
import { presentSpeaker, speakerShape } from "../present.js";
import { assertNameFree, speakerOf } from "../speakers.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.update_speaker",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: requireOneOf(
    z.strictObject({
      script_id: id(),
      speaker_id: id().optional(),
      name: name().optional(),
      new_name: name().optional(),
      persona: text(2000).optional(),
      request: request().optional(),
    }),
    ["speaker_id", "name"],
  ),
  weight: 1,
  purpose: "lines, voice and id untouched",
  output: z.object({
    object: z.literal("script_speaker"),
    script_id: z.string(),
    speaker: speakerShape,
    edit_id: z.string().nullable().describe("The edit log entry (null when nothing changed)."),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example", speaker: "Host" });
    return { script_id: script.script_id, name: "Host", new_name: "Presenter", persona: "Warm and curious" };
  },
  async run({ tx, graphql }, input) {
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.update_speaker");
    const speaker = await speakerOf(tx, input.script_id, input);
    const before: Record<string, string | null> = {};
    const after: Record<string, string | null> = {};
    if (input.new_name !== undefined) {
      const newName = input.new_name.trim();
      if (newName === "") throw validationFailed([{ path: "new_name", message: "A speaker's name cannot be blank.", type: "string.min" }]);
      if (newName !== speaker.name) {
        await assertNameFree(tx, input.script_id, newName, "new_name", speaker.speaker_id);
        before.name = speaker.name;
        after.name = newName;
      }
    }
    if (input.persona !== undefined) {
      const persona = input.persona.trim() === "" ? null : input.persona;
      if (persona !== speaker.persona) {
        before.persona = speaker.persona;
        after.persona = persona;
      }
    }
    if (Object.keys(after).length === 0) {
      const script = await write.unchanged();
      return { object: "script_speaker" as const, script_id: input.script_id, speaker: presentSpeaker(speaker), edit_id: null, revision: script.revision, request: input.request ?? null };
    }
    const updated = await tx.scriptSpeaker.update({ where: { speaker_id: speaker.speaker_id }, data: after });
    const editId = await write.edit({ kind: "speaker.update", before: { speaker_id: speaker.speaker_id, ...before }, after: { speaker_id: speaker.speaker_id, ...after } });
    const script = await write.done();
    return { object: "script_speaker" as const, script_id: input.script_id, speaker: presentSpeaker(updated), edit_id: editId, revision: script.revision, request: input.request ?? null };
  },
});
