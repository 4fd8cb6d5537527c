// scripts.delete (catalog 4.8): the script and everything that hangs off it — paragraphs,
// chapters, cast, restore points, edit log, review notes, sources (and take history once takes
// are recorded) — in one transaction. Irreversible: nothing is kept to restore from. The
// workspace's snippet shelf keeps lines saved from it (they belong to the workspace).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id } from "../../actions/catalog/define.js";
import { lockScript } from "../document.js";

export default defineAction({
  name: "scripts.delete",
  method: "POST",
  scopes: ["scripts:delete"],
  credits: false,
  input: z.strictObject({ script_id: id() }),
  weight: 1,
  purpose: "deletes paragraphs, restore points, review notes and take history; irreversible",
  output: z.object({
    object: z.literal("script"),
    script_id: z.string(),
    deleted: z.literal(true),
    removed: z
      .object({
        paragraphs: z.number().int(),
        chapters: z.number().int(),
        speakers: z.number().int(),
        restore_points: z.number().int(),
        edits: z.number().int().describe("Entries of the edit log."),
        review_notes: z.number().int(),
        sources: z.number().int(),
      })
      .describe("What went with it."),
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "To delete" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Short-lived words." });
    return { script_id: script.script_id };
  },
  async run({ tx, graphql }, input) {
    // Locked first: a write in flight finishes before, and none starts after.
    await lockScript(tx, graphql, input.script_id);
    const where = { where: { script_id: input.script_id } };
    const [paragraphs, chapters, speakers, restorePoints, edits, reviewNotes, sources] = await Promise.all([
      tx.scriptParagraph.count(where),
      tx.scriptChapter.count(where),
      tx.scriptSpeaker.count(where),
      tx.scriptSnapshot.count(where),
      tx.scriptEdit.count(where),
      tx.scriptNote.count(where),
      tx.scriptSource.count(where),
    ]);
    // The document's tables follow the script (ON DELETE CASCADE).
    await tx.script.delete({ where: { script_id: input.script_id } });
    return {
      object: "script" as const,
      script_id: input.script_id,
      deleted: true as const,
      removed: { paragraphs, chapters, speakers, restore_points: restorePoints, edits, review_notes: reviewNotes, sources },
    };
  },
});
