// scripts.annotate_paragraph (catalog 4.9): the paragraph's margin note, an instruction later AI
// passes are given for that paragraph; an empty (or blank) `note` clears it. A direct edit by id:
// a locked paragraph takes a note too. Logged as `paragraph.note`.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request, text } from "../../actions/catalog/define.js";
import { openForWrite } from "../document.js";
import { paragraphShape, presentParagraph } from "../present.js";
import { echoedRequest, paragraphOf } from "../summary.js";

export default defineAction({
  name: "scripts.annotate_paragraph",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    paragraph_id: id(),
    note: text(5000),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "margin note given to later AI passes as an instruction; empty string clears it",
  output: z.object({
    object: z.literal("script_paragraph"),
    script_id: z.string(),
    paragraph: paragraphShape,
    edit_id: z.string().nullable().describe("The edit log entry (null when the note already was this)."),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Prices start at ten dollars." });
    return { script_id: script.script_id, paragraph_id: (paragraph.paragraph as { paragraph_id: string }).paragraph_id, note: "Keep the price exact." };
  },
  async run({ tx, graphql }, input) {
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.annotate_paragraph");
    const row = await paragraphOf(tx, input.script_id, input.paragraph_id);
    const note = input.note.trim() === "" ? null : input.note;
    if (row.note === note) {
      const script = await write.unchanged();
      return { object: "script_paragraph" as const, script_id: input.script_id, paragraph: presentParagraph(row), edit_id: null, revision: script.revision, request: input.request ?? null };
    }
    const updated = await tx.scriptParagraph.update({ where: { paragraph_id: row.paragraph_id }, data: { note } });
    const editId = await write.edit({ paragraphId: row.paragraph_id, kind: "paragraph.note", before: { note: row.note }, after: { note } });
    const script = await write.done();
    return { object: "script_paragraph" as const, script_id: input.script_id, paragraph: presentParagraph(updated), edit_id: editId, revision: script.revision, request: input.request ?? null };
  },
});
