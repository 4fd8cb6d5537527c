// scripts.resolve_note (catalog 4.8; contract section 3, "Review note"): `resolved` true resolves
// an open note, false reopens a resolved one; `delete` true deletes it, open or resolved (it is gone
// from scripts.notes and the resource; kept as deleted in the table), whatever `resolved` says. A
// deleted note, or a note of another script, is 404. A write to the script like any other:
// restore point first, the move in the edit log (`note.resolve`, `note.reopen`, `note.delete`).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, request, requireOneOf } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { openForWrite } from "../document.js";
import { postReviewNote } from "../review/client.js";
import { presentReviewNote, reviewNoteShape } from "../review/notes.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.resolve_note",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: requireOneOf(
    z
      .strictObject({
        script_id: id(),
        note_id: id(),
        resolved: flag().optional(),
        delete: flag().optional(),
        request: request().optional(),
      })
      .superRefine((value, context) => {
        if (value.delete === false && value.resolved === undefined) {
          context.addIssue({ code: "custom", path: ["delete"], message: "delete false does nothing: send delete true to delete the note, or resolved to resolve or reopen it.", params: { type: "any.invalid" } });
        }
      }),
    ["resolved", "delete"],
  ),
  weight: 1,
  purpose: "resolve, reopen or delete a note",
  output: z.object({
    object: z.literal("script_note"),
    script_id: z.string(),
    note: reviewNoteShape,
    previous_status: z.string().describe("open or resolved: the note's status before the call."),
    edit_id: z.string().nullable().describe("The edit log entry (null when the note already was as asked)."),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "A line a reviewer commented on." });
    // Notes arrive only through the review link: share with notes on, and post one there.
    const share = await setup.action("scripts.share", { script_id: script.script_id, enabled: true, allow_notes: true });
    await postReviewNote(share.url as string, { paragraph_id: (paragraph.paragraph as { paragraph_id: string }).paragraph_id, body: "Say this slower." });
    const { notes } = await setup.action("scripts.notes", { script_id: script.script_id });
    return { script_id: script.script_id, note_id: (notes as { note_id: string }[])[0]!.note_id, resolved: true };
  },
  async run({ tx, graphql }, input) {
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.resolve_note");
    const before = await tx.scriptNote.findFirst({ where: { note_id: input.note_id, script_id: input.script_id, status: { not: "deleted" } } });
    if (!before) throw new ApiError("not_found", `No note '${input.note_id}' on this script.`, { param: "note_id" });
    const now = new Date();
    const next = input.delete ? "deleted" : input.resolved ? "resolved" : "open";
    let note = before;
    let editId: string | null = null;
    if (next !== before.status) {
      note = await tx.scriptNote.update({
        where: { note_id: before.note_id },
        data: next === "deleted" ? { status: next, deleted_at: now } : { status: next, resolved_at: next === "resolved" ? now : null },
      });
      const kind = next === "deleted" ? "note.delete" : next === "resolved" ? "note.resolve" : "note.reopen";
      editId = await write.edit({ paragraphId: before.paragraph_id, kind, before: { note_id: before.note_id, status: before.status }, after: { note_id: before.note_id, status: next } });
    }
    const script = await write.done();
    const paragraph = before.paragraph_id ? await tx.scriptParagraph.findFirst({ where: { script_id: input.script_id, paragraph_id: before.paragraph_id }, select: { paragraph_id: true, position: true, text: true } }) : null;
    return {
      object: "script_note" as const,
      script_id: input.script_id,
      note: presentReviewNote(note, new Map(paragraph ? [[paragraph.paragraph_id, paragraph]] : [])),
      previous_status: before.status,
      edit_id: editId,
      revision: script.revision,
      request: input.request ?? null,
    };
  },
});
