// scripts.assign_speaker (catalog 4.10): gives the paragraphs to a speaker of the cast; an empty
// (or absent) `speaker_id`, or the base speaker's own id, gives them back to the base speaker (a
// paragraph's speaker_id is then null). A direct edit by id: locked paragraphs too. One
// `paragraph.speaker` log entry per paragraph whose speaker changed.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, paragraphIds, request } from "../../actions/catalog/define.js";
import { paragraphsAnswer, setParagraphsField } from "../paragraph-fields.js";
import { presentSpeaker, speakerShape } from "../present.js";
import { speakerOf } from "../speakers.js";

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
  output: paragraphsAnswer("speaker", { speaker: speakerShape.describe("Who speaks them now.") }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const guest = await setup.action("scripts.add_speaker", { script_id: script.script_id, name: "Guest" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "My turn to speak." });
    return { script_id: script.script_id, paragraph_ids: [(paragraph.paragraph as { paragraph_id: string }).paragraph_id], speaker_id: (guest.speaker as { speaker_id: string }).speaker_id };
  },
  async run(call, input) {
    // The speaker is found once the script is locked, before the paragraphs are.
    let speaker: Awaited<ReturnType<typeof speakerOf>> | undefined;
    const { object, script_id, ...rest } = await setParagraphsField(call, "scripts.assign_speaker", input, async (tx) => {
      speaker = await speakerOf(tx, input.script_id, { speaker_id: input.speaker_id?.trim() || undefined }, "base");
      const speakerId = speaker.is_base ? null : speaker.speaker_id;
      return { kind: "paragraph.speaker", key: "speaker_id", current: (row) => row.speaker_id, next: () => speakerId, data: (speaker_id) => ({ speaker_id }) };
    });
    return { object, script_id, speaker: presentSpeaker(speaker!), ...rest };
  },
});
