// scripts.lock_paragraphs (catalog 4.9, contract 1 section 3): `locked` true locks the paragraphs,
// false unlocks them. A locked paragraph is never touched by a document-wide pass
// (replace_everywhere, polish, translate, undo_change, …: each skips it and says so); direct edits
// by its id still go through. One `paragraph.lock` log entry per paragraph whose lock changed.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, paragraphIds, request } from "../../actions/catalog/define.js";
import { paragraphsAnswer, setParagraphsField } from "../paragraph-fields.js";

export default defineAction({
  name: "scripts.lock_paragraphs",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    paragraph_ids: paragraphIds(),
    locked: flag(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "see Document 1 section 3",
  output: paragraphsAnswer("lock"),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Approved by legal." });
    return { script_id: script.script_id, paragraph_ids: [(paragraph.paragraph as { paragraph_id: string }).paragraph_id], locked: true };
  },
  run: (call, input) =>
    setParagraphsField(call, "scripts.lock_paragraphs", input, {
      kind: "paragraph.lock",
      key: "locked",
      current: (row) => row.locked,
      next: () => input.locked,
      data: (locked) => ({ locked }),
    }),
});
