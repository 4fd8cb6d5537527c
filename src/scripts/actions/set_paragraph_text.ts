// scripts.set_paragraph_text (catalog 4.9): the exact words of one paragraph. Role, visual,
// speaker, recording and history stay; the old words go to the edit log (undo_change restores
// them). A direct edit reaches a locked paragraph too: a lock keeps document-wide passes away.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request } from "../../actions/catalog/define.js";
import { paragraphText } from "../fields.js";
import { openForWrite, wordsIn } from "../document.js";
import { paragraphShape, presentParagraph } from "../present.js";
import { echoedRequest, paragraphOf } from "../summary.js";

export default defineAction({
  name: "scripts.set_paragraph_text",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    paragraph_id: id(),
    text: paragraphText(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "exact words; keeps role, visual, recording, history",
  output: z.object({
    object: z.literal("script_paragraph"),
    script_id: z.string(),
    paragraph: paragraphShape,
    edit_id: z.string().nullable().describe("The edit log entry (null when the words were already these)."),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "First words." });
    return { script_id: script.script_id, paragraph_id: (paragraph.paragraph as { paragraph_id: string }).paragraph_id, text: "Better words." };
  },
  async run({ tx, graphql }, input) {
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.set_paragraph_text");
    const before = await paragraphOf(tx, input.script_id, input.paragraph_id);
    let editId: string | null = null;
    let paragraph = before;
    if (before.text !== input.text) {
      paragraph = await tx.scriptParagraph.update({ where: { paragraph_id: before.paragraph_id }, data: { text: input.text, word_count: wordsIn(input.text) } });
      editId = await write.edit({ paragraphId: before.paragraph_id, kind: "paragraph.text", before: { text: before.text }, after: { text: input.text } });
    }
    const script = await write.done();
    return { object: "script_paragraph" as const, script_id: input.script_id, paragraph: presentParagraph(paragraph), edit_id: editId, revision: script.revision, request: input.request ?? null };
  },
});
