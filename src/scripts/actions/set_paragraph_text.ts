// scripts.set_paragraph_text (catalog 4.9): the exact words of one paragraph. Role, visual,
// speaker, recording and history stay; the old words go to the edit log (undo_change restores
// them). A direct edit reaches a locked paragraph too: a lock keeps document-wide passes away.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request } from "../../actions/catalog/define.js";
import { paragraphText } from "../fields.js";
import { wordsIn } from "../document.js";
import { paragraphAnswer, setParagraphField } from "../paragraph-fields.js";

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
  output: paragraphAnswer("The edit log entry (null when the words were already these)."),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "First words." });
    return { script_id: script.script_id, paragraph_id: (paragraph.paragraph as { paragraph_id: string }).paragraph_id, text: "Better words." };
  },
  run: (call, input) =>
    setParagraphField(call, "scripts.set_paragraph_text", input, {
      kind: "paragraph.text",
      key: "text",
      current: (row) => row.text,
      next: () => input.text,
      data: (text) => ({ text, word_count: wordsIn(text) }),
    }),
});
