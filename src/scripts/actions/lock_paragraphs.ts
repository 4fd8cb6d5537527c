// scripts.lock_paragraphs (catalog 4.9, contract 1 section 3): `locked` true locks the paragraphs,
// false unlocks them. A locked paragraph is never touched by a document-wide pass
// (replace_everywhere, polish, translate, undo_change, …: each skips it and says so); direct edits
// by its id still go through. One `paragraph.lock` log entry per paragraph whose lock changed.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, paragraphIds, request } from "../../actions/catalog/define.js";
import { openForWrite } from "../document.js";
import { paragraphsOf } from "../paragraphs.js";
import { paragraphShape, presentParagraph } from "../present.js";
import { echoedRequest } from "../summary.js";

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
  output: z.object({
    object: z.literal("script_paragraphs"),
    script_id: z.string(),
    paragraphs: z.array(paragraphShape).describe("The paragraphs named, in document order, as they are now."),
    changed: z.array(z.object({ paragraph_id: z.string(), edit_id: z.string() })).describe("Those whose lock changed."),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Approved by legal." });
    return { script_id: script.script_id, paragraph_ids: [(paragraph.paragraph as { paragraph_id: string }).paragraph_id], locked: true };
  },
  async run({ tx, graphql }, input) {
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.lock_paragraphs");
    const rows = await paragraphsOf(tx, input.script_id, input.paragraph_ids);
    const changed = [];
    const paragraphs = [];
    for (const row of rows) {
      if (row.locked === input.locked) {
        paragraphs.push(presentParagraph(row));
        continue;
      }
      const updated = await tx.scriptParagraph.update({ where: { paragraph_id: row.paragraph_id }, data: { locked: input.locked } });
      changed.push({ paragraph_id: row.paragraph_id, edit_id: await write.edit({ paragraphId: row.paragraph_id, kind: "paragraph.lock", before: { locked: row.locked }, after: { locked: input.locked } }) });
      paragraphs.push(presentParagraph(updated));
    }
    const script = changed.length ? await write.done() : await write.unchanged();
    return { object: "script_paragraphs" as const, script_id: input.script_id, paragraphs, changed, revision: script.revision, request: input.request ?? null };
  },
});
