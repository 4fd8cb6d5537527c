// scripts.add_speaker (catalog 4.10): a new speaker at the end of the cast, with its name (unique
// in the script, ignoring case) and persona; it changes nothing else on its own — no line is
// given to it (scripts.assign_speaker does that), no voice set. At most 50 speakers. Logged as
// `speaker.add` (undo_change removes it again while it has no lines).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, name, request, text } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { newId } from "../../ids.js";
import { validationFailed } from "../../validation/issues.js";
import { openForWrite } from "../document.js";
import { presentSpeaker, speakerShape } from "../present.js";
import { assertNameFree, MAX_SPEAKERS, speakerCopy } from "../speakers.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.add_speaker",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    name: name(),
    persona: text(2000).optional(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "changes nothing else on its own",
  output: z.object({
    object: z.literal("script_speaker"),
    script_id: z.string(),
    speaker: speakerShape,
    edit_id: z.string(),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    return { script_id: script.script_id, name: "Guest", persona: "A sceptical engineer" };
  },
  async run({ tx, graphql }, input) {
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.add_speaker");
    const speakerName = input.name.trim();
    if (speakerName === "") throw validationFailed([{ path: "name", message: "A speaker's name cannot be blank.", type: "string.min" }]);
    await assertNameFree(tx, input.script_id, speakerName, "name");
    const count = await tx.scriptSpeaker.count({ where: { script_id: input.script_id } });
    if (count >= MAX_SPEAKERS) throw new ApiError("invalid_request", `A script has at most ${MAX_SPEAKERS} speakers.`, { param: "name" });
    const speaker = await tx.scriptSpeaker.create({
      data: { speaker_id: newId("script_speaker"), script_id: input.script_id, position: count, name: speakerName, persona: input.persona?.trim() || null },
    });
    const editId = await write.edit({ kind: "speaker.add", after: { speaker: speakerCopy(speaker), paragraph_ids: [] } });
    const script = await write.done();
    return { object: "script_speaker" as const, script_id: input.script_id, speaker: presentSpeaker(speaker), edit_id: editId, revision: script.revision, request: input.request ?? null };
  },
});
