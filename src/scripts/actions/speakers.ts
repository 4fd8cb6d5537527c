// scripts.speakers (catalog 4.10): the cast in order. The first speaker is the base speaker: it
// speaks every line not given to anyone (a paragraph's speaker_id null) and can never be removed.
// Each speaker comes with how many lines and words it has; `with_lines` adds the lines themselves
// (paragraph id, position, role, words). Answered whole: a cast has at most 50 speakers.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, request } from "../../actions/catalog/define.js";
import { readScript } from "../document.js";
import { presentSpeaker, speakerShape } from "../present.js";
import { echoedRequest } from "../summary.js";

const lineShape = z
  .object({ paragraph_id: z.string(), position: z.number().int(), role: z.string(), text: z.string(), word_count: z.number().int() })
  .meta({ id: "ScriptLine", description: "A paragraph as one speaker's line." });

export default defineAction({
  name: "scripts.speakers",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    with_lines: flag().optional(),
    request: request().optional(),
  }),
  weight: 1,
  purpose:
    "the cast; the first speaker is the base speaker, receives every unassigned line and can never be removed",
  output: z.object({
    object: z.literal("script_cast"),
    script_id: z.string(),
    base_speaker_id: z.string(),
    speakers: z.array(
      speakerShape.extend({
        line_count: z.number().int(),
        word_count: z.number().int(),
        lines: z.array(lineShape).nullable().describe("Its lines in order, with with_lines; null otherwise."),
      }),
    ),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example", speaker: "Host" });
    await setup.action("scripts.add_speaker", { script_id: script.script_id, name: "Guest" });
    return { script_id: script.script_id, with_lines: true };
  },
  async run({ tx, graphql }, input) {
    await readScript(tx, graphql, input.script_id);
    const [cast, paragraphs] = await Promise.all([
      tx.scriptSpeaker.findMany({ where: { script_id: input.script_id }, orderBy: { position: "asc" } }),
      tx.scriptParagraph.findMany({
        where: { script_id: input.script_id },
        orderBy: { position: "asc" },
        select: { paragraph_id: true, position: true, role: true, speaker_id: true, word_count: true, text: input.with_lines === true },
      }),
    ]);
    const base = cast.find((row) => row.is_base)!;
    return {
      object: "script_cast" as const,
      script_id: input.script_id,
      base_speaker_id: base.speaker_id,
      speakers: cast.map((speaker) => {
        const lines = paragraphs.filter((row) => (row.speaker_id ?? base.speaker_id) === speaker.speaker_id);
        return {
          ...presentSpeaker(speaker),
          line_count: lines.length,
          word_count: lines.reduce((sum, row) => sum + row.word_count, 0),
          lines: input.with_lines ? lines.map((row) => ({ paragraph_id: row.paragraph_id, position: row.position, role: row.role, text: row.text ?? "", word_count: row.word_count })) : null,
        };
      }),
      request: input.request ?? null,
    };
  },
});
