// scripts.annotate_paragraph (catalog 4.9): the paragraph's margin note, an instruction later AI
// passes are given for that paragraph; an empty (or blank) `note` clears it. A direct edit by id:
// a locked paragraph takes a note too. Logged as `paragraph.note`.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request, text } from "../../actions/catalog/define.js";
import { paragraphAnswer, setParagraphField } from "../paragraph-fields.js";

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
  output: paragraphAnswer("The edit log entry (null when the note already was this)."),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Prices start at ten dollars." });
    return { script_id: script.script_id, paragraph_id: (paragraph.paragraph as { paragraph_id: string }).paragraph_id, note: "Keep the price exact." };
  },
  run: (call, input) =>
    setParagraphField(call, "scripts.annotate_paragraph", input, {
      kind: "paragraph.note",
      key: "note",
      current: (row) => row.note,
      next: () => (input.note.trim() === "" ? null : input.note),
      data: (note) => ({ note }),
    }),
});
