// scripts.assign_speaker (catalog 4.10): gives the paragraphs to a speaker of the cast; an empty
// (or absent) `speaker_id`, or the base speaker's own id, gives them back to the base speaker (a
// paragraph's speaker_id is then null). A direct edit by id: locked paragraphs too. One
// `paragraph.speaker` log entry per paragraph whose speaker changed.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, paragraphIds, request } from "../../actions/catalog/define.js";
import { openForWrite } from "../document.js";
import { paragraphsOf } from "../paragraphs.js";
import { paragraphShape, presentParagraph, presentSpeaker, speakerShape } from "../present.js";
import { speakerOf } from "../speakers.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.assign_speaker",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    paragraph_ids: paragraphIds(),
    speaker_id: z.string().max(64).optional(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "an empty `speaker_id` gives lines back to the base speaker",
  output: z.object({
    object: z.literal("script_paragraphs"),
    script_id: z.string(),
    speaker: speakerShape.describe("Who speaks them now."),
    paragraphs: z.array(paragraphShape).describe("The paragraphs named, in document order, as they are now."),
    changed: z.array(z.object({ paragraph_id: z.string(), edit_id: z.string() })).describe("Those whose speaker changed."),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const guest = await setup.action("scripts.add_speaker", { script_id: script.script_id, name: "Guest" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "My turn to speak." });
    return { script_id: script.script_id, paragraph_ids: [(paragraph.paragraph as { paragraph_id: string }).paragraph_id], speaker_id: (guest.speaker as { speaker_id: string }).speaker_id };
  },
  async run({ tx, graphql }, input) {
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.assign_speaker");
    const speaker = await speakerOf(tx, input.script_id, { speaker_id: input.speaker_id?.trim() || undefined }, "base");
    const speakerId = speaker.is_base ? null : speaker.speaker_id;
    const rows = await paragraphsOf(tx, input.script_id, input.paragraph_ids);
    const changed = [];
    const paragraphs = [];
    for (const row of rows) {
      if (row.speaker_id === speakerId) {
        paragraphs.push(presentParagraph(row));
        continue;
      }
      const updated = await tx.scriptParagraph.update({ where: { paragraph_id: row.paragraph_id }, data: { speaker_id: speakerId } });
      changed.push({ paragraph_id: row.paragraph_id, edit_id: await write.edit({ paragraphId: row.paragraph_id, kind: "paragraph.speaker", before: { speaker_id: row.speaker_id }, after: { speaker_id: speakerId } }) });
      paragraphs.push(presentParagraph(updated));
    }
    const script = changed.length ? await write.done() : await write.unchanged();
    return { object: "script_paragraphs" as const, script_id: input.script_id, speaker: presentSpeaker(speaker), paragraphs, changed, revision: script.revision, request: input.request ?? null };
  },
});
