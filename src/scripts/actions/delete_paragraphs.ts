// scripts.delete_paragraphs (catalog 4.9): deletes the given paragraphs (each id once; any id not
// of this script is 404 and nothing is deleted); the others close ranks (positions stay dense). A
// direct edit by id: a locked paragraph is deleted too. Each deletion is logged with the whole
// paragraph, so undo_change puts it back with its id, words, role, speaker, note and visual.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, paragraphIds, request } from "../../actions/catalog/define.js";
import { openForWrite, renumber } from "../document.js";
import { paragraphsOf } from "../paragraphs.js";
import { presentParagraph } from "../present.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.delete_paragraphs",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    paragraph_ids: paragraphIds(),
    request: request().optional(),
  }),
  weight: 1,
  // The catalog leaves this cell empty.
  purpose: "deletes the given paragraphs",
  output: z.object({
    object: z.literal("script_paragraphs_deleted"),
    script_id: z.string(),
    deleted: z.array(z.object({ paragraph_id: z.string(), position: z.number().int().describe("Where it was."), edit_id: z.string() })),
    paragraph_count: z.number().int().describe("Paragraphs left."),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Cut this." });
    return { script_id: script.script_id, paragraph_ids: [(paragraph.paragraph as { paragraph_id: string }).paragraph_id] };
  },
  async run({ tx, graphql }, input) {
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.delete_paragraphs");
    const rows = await paragraphsOf(tx, input.script_id, input.paragraph_ids);
    await tx.scriptParagraph.deleteMany({ where: { paragraph_id: { in: rows.map((row) => row.paragraph_id) } } });
    await renumber(tx, input.script_id);
    const deleted = [];
    for (const row of rows) {
      const editId = await write.edit({ paragraphId: row.paragraph_id, kind: "paragraph.delete", before: presentParagraph(row) });
      deleted.push({ paragraph_id: row.paragraph_id, position: row.position, edit_id: editId });
    }
    const script = await write.done();
    return { object: "script_paragraphs_deleted" as const, script_id: input.script_id, deleted, paragraph_count: script.paragraph_count, revision: script.revision, request: input.request ?? null };
  },
});
