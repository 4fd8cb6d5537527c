// scripts.set_speaker_face (catalog 4.10): the photo a speaker is filmed from (scripts.film): an
// http(s) `image_url`, stored as given and not fetched here (whatever reads it later goes through
// the URL guard), with an optional `aspect` label (`portrait`, `9:16`, …); `clear` removes both.
// Without `speaker_id`, the base speaker. Free. Logged as `speaker.face`.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, label, request, requireOneOf, url } from "../../actions/catalog/define.js";
import { validationFailed } from "../../validation/issues.js";
import { openForWrite } from "../document.js";
import { presentSpeaker, speakerShape } from "../present.js";
import { speakerOf } from "../speakers.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.set_speaker_face",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: requireOneOf(
    z.strictObject({
      script_id: id(),
      image_url: url().optional(),
      speaker_id: id().optional(),
      aspect: label().optional(),
      clear: flag().optional(),
      request: request().optional(),
    }),
    ["image_url", "clear"],
  ),
  weight: 1,
  purpose: "the photo a speaker is filmed from; without `speaker_id` sets the base speaker; free",
  output: z.object({
    object: z.literal("script_speaker"),
    script_id: z.string(),
    speaker: speakerShape,
    edit_id: z.string().nullable().describe("The edit log entry (null when nothing changed)."),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    return { script_id: script.script_id, image_url: "https://images.example.com/narrator.jpg", aspect: "portrait" };
  },
  async run({ tx, graphql }, input) {
    if (input.clear === true && input.image_url !== undefined) throw validationFailed([{ path: "clear", message: "Send image_url to set a face, or clear: true to remove it, not both.", type: "any.invalid" }]);
    if (input.clear === true && input.aspect !== undefined) throw validationFailed([{ path: "aspect", message: "aspect goes with image_url; clear removes the face and its aspect.", type: "any.invalid" }]);
    if (input.clear !== true && input.image_url === undefined) throw validationFailed([{ path: "image_url", message: "Send image_url, or clear: true.", type: "any.required" }]);
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.set_speaker_face");
    const speaker = await speakerOf(tx, input.script_id, { speaker_id: input.speaker_id }, "base");
    const after = input.clear ? { face_url: null, face_aspect: null } : { face_url: input.image_url!, face_aspect: input.aspect ?? null };
    if (speaker.face_url === after.face_url && speaker.face_aspect === after.face_aspect) {
      const script = await write.unchanged();
      return { object: "script_speaker" as const, script_id: input.script_id, speaker: presentSpeaker(speaker), edit_id: null, revision: script.revision, request: input.request ?? null };
    }
    const updated = await tx.scriptSpeaker.update({ where: { speaker_id: speaker.speaker_id }, data: after });
    const editId = await write.edit({
      kind: "speaker.face",
      before: { speaker_id: speaker.speaker_id, face_url: speaker.face_url, face_aspect: speaker.face_aspect },
      after: { speaker_id: speaker.speaker_id, ...after },
    });
    const script = await write.done();
    return { object: "script_speaker" as const, script_id: input.script_id, speaker: presentSpeaker(updated), edit_id: editId, revision: script.revision, request: input.request ?? null };
  },
});
