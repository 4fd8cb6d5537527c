// scripts.set_speaker_voice (catalog 4.10): the voice a speaker's lines are voiced with, a
// voice_ref of scripts.voices; `null` puts the speaker back on the script's default voice. The
// speaker is named by `speaker_id` or `name`; with neither, the base speaker. Recordings already
// made are unchanged (a later scripts.voice uses the new voice). Logged as `speaker.voice`.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, name, request } from "../../actions/catalog/define.js";
import { voiceRef } from "../fields.js";
import { openForWrite } from "../document.js";
import { presentSpeaker, speakerShape } from "../present.js";
import { requireVoice } from "../refs.js";
import { speakerOf } from "../speakers.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.set_speaker_voice",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    speaker_id: id().optional(),
    name: name().optional(),
    voice_ref: voiceRef().nullable(),
    request: request().optional(),
  }),
  weight: 1,
  purpose:
    "`voice_ref` null puts the speaker back on the default; recordings already made are unchanged",
  output: z.object({
    object: z.literal("script_speaker"),
    script_id: z.string(),
    speaker: speakerShape,
    effective_voice_ref: z.string().nullable().describe("The voice its lines get now: its own, else the script's default (null: none yet)."),
    edit_id: z.string().nullable().describe("The edit log entry (null when nothing changed)."),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example", speaker: "Host" });
    return { script_id: script.script_id, name: "Host", voice_ref: "local/en-gb" };
  },
  async run({ tx, graphql }, input) {
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.set_speaker_voice");
    const speaker = await speakerOf(tx, input.script_id, input, "base");
    const voice = input.voice_ref === null ? null : await requireVoice(tx, graphql, input.voice_ref, "voice_ref");
    const after = { voice_ref: voice?.voice_ref ?? null, voice_name: voice?.name ?? null };
    const effective = (row: { voice_ref: string | null }) => row.voice_ref ?? write.script.default_voice_ref;
    if (speaker.voice_ref === after.voice_ref && speaker.voice_name === after.voice_name) {
      const script = await write.unchanged();
      return { object: "script_speaker" as const, script_id: input.script_id, speaker: presentSpeaker(speaker), effective_voice_ref: effective(speaker), edit_id: null, revision: script.revision, request: input.request ?? null };
    }
    const updated = await tx.scriptSpeaker.update({ where: { speaker_id: speaker.speaker_id }, data: after });
    const editId = await write.edit({
      kind: "speaker.voice",
      before: { speaker_id: speaker.speaker_id, voice_ref: speaker.voice_ref, voice_name: speaker.voice_name },
      after: { speaker_id: speaker.speaker_id, ...after },
    });
    const script = await write.done();
    return { object: "script_speaker" as const, script_id: input.script_id, speaker: presentSpeaker(updated), effective_voice_ref: effective(updated), edit_id: editId, revision: script.revision, request: input.request ?? null };
  },
});
