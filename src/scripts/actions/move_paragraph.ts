// scripts.move_paragraph (catalog 4.9): moves one paragraph to `to_index`, counted in the document
// with the paragraph lifted out: 0 puts it first, n-1 (n paragraphs) last; a larger index is 422.
// Its chapter stays. A direct edit by id: a locked paragraph moves too. Logged as
// `paragraph.move` with the paragraph it followed before and after, so undo_change puts it back
// after the same neighbour.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request } from "../../actions/catalog/define.js";
import { validationFailed } from "../../validation/issues.js";
import { openForWrite } from "../document.js";
import { moveTo, predecessorOf } from "../paragraphs.js";
import { paragraphShape, presentParagraph } from "../present.js";
import { echoedRequest, paragraphOf } from "../summary.js";

export default defineAction({
  name: "scripts.move_paragraph",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    paragraph_id: id(),
    to_index: z.number().int().min(0).max(100_000),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "`to_index` counts the document after the paragraph is lifted out",
  output: z.object({
    object: z.literal("script_paragraph"),
    script_id: z.string(),
    paragraph: paragraphShape,
    from_position: z.number().int(),
    edit_id: z.string().nullable().describe("The edit log entry (null when it already was there)."),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "First." });
    const second = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Second." });
    return { script_id: script.script_id, paragraph_id: (second.paragraph as { paragraph_id: string }).paragraph_id, to_index: 0 };
  },
  async run({ tx, graphql }, input) {
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.move_paragraph");
    const paragraph = await paragraphOf(tx, input.script_id, input.paragraph_id);
    const last = write.script.paragraph_count - 1;
    if (input.to_index > last) throw validationFailed([{ path: "to_index", message: `Must be at most ${last}: the script has ${last + 1} paragraphs, ${last} with this one lifted out.`, type: "number.max" }]);
    if (input.to_index === paragraph.position) {
      const script = await write.unchanged();
      return { object: "script_paragraph" as const, script_id: input.script_id, paragraph: presentParagraph(paragraph), from_position: paragraph.position, edit_id: null, revision: script.revision, request: input.request ?? null };
    }
    const followed = await predecessorOf(tx, input.script_id, paragraph.position);
    const position = await moveTo(tx, input.script_id, paragraph.paragraph_id, input.to_index);
    const follows = await predecessorOf(tx, input.script_id, position);
    const editId = await write.edit({
      paragraphId: paragraph.paragraph_id,
      kind: "paragraph.move",
      before: { position: paragraph.position, after_paragraph_id: followed },
      after: { position, after_paragraph_id: follows },
    });
    const script = await write.done();
    const moved = await paragraphOf(tx, input.script_id, paragraph.paragraph_id);
    return { object: "script_paragraph" as const, script_id: input.script_id, paragraph: presentParagraph(moved), from_position: paragraph.position, edit_id: editId, revision: script.revision, request: input.request ?? null };
  },
});
