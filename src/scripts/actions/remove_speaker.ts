// scripts.remove_speaker (catalog 4.10): removes a speaker (by `speaker_id` or `name`) from the
// cast; its lines go back to the base speaker — all of them, locked ones too (the removal is the
// author's explicit act on the speaker). The base speaker can never be removed (400). Logged as
// one `speaker.remove` entry holding the speaker and its lines: undo_change brings it back and
// gives back the lines still with the base speaker.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, name, request, requireOneOf } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { openForWrite } from "../document.js";
import { presentSpeaker, speakerShape } from "../present.js";
import { renumberSpeakers, speakerCopy, speakerOf } from "../speakers.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.remove_speaker",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: requireOneOf(
    z.strictObject({
      script_id: id(),
      speaker_id: id().optional(),
      name: name().optional(),
      request: request().optional(),
    }),
    ["speaker_id", "name"],
  ),
  weight: 1,
  purpose: "the speaker's lines go back to the base speaker",
  output: z.object({
    object: z.literal("script_speaker_removed"),
    script_id: z.string(),
    removed: speakerShape.describe("The speaker as it was."),
    base_speaker_id: z.string().describe("Who speaks its lines now."),
    reassigned_paragraph_ids: z.array(z.string()).describe("Its lines, now the base speaker's."),
    edit_id: z.string(),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const guest = await setup.action("scripts.add_speaker", { script_id: script.script_id, name: "Guest" });
    return { script_id: script.script_id, speaker_id: (guest.speaker as { speaker_id: string }).speaker_id };
  },
  async run({ tx, graphql }, input) {
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.remove_speaker");
    const speaker = await speakerOf(tx, input.script_id, input);
    if (speaker.is_base) {
      throw new ApiError("invalid_request", `'${speaker.name}' is the base speaker: it speaks every unassigned line and can never be removed (rename it with scripts.update_speaker).`, { param: input.speaker_id !== undefined ? "speaker_id" : "name" });
    }
    const base = await tx.scriptSpeaker.findFirstOrThrow({ where: { script_id: input.script_id, is_base: true } });
    const lines = await tx.scriptParagraph.findMany({ where: { script_id: input.script_id, speaker_id: speaker.speaker_id }, orderBy: { position: "asc" }, select: { paragraph_id: true } });
    const lineIds = lines.map((row) => row.paragraph_id);
    // Back to the base speaker explicitly, before the row goes.
    await tx.scriptParagraph.updateMany({ where: { speaker_id: speaker.speaker_id }, data: { speaker_id: null } });
    await tx.scriptSpeaker.delete({ where: { speaker_id: speaker.speaker_id } });
    await renumberSpeakers(tx, input.script_id);
    const editId = await write.edit({ kind: "speaker.remove", before: { speaker: speakerCopy(speaker), paragraph_ids: lineIds } });
    const script = await write.done();
    return {
      object: "script_speaker_removed" as const,
      script_id: input.script_id,
      removed: presentSpeaker(speaker),
      base_speaker_id: base.speaker_id,
      reassigned_paragraph_ids: lineIds,
      edit_id: editId,
      revision: script.revision,
      request: input.request ?? null,
    };
  },
});
