// scripts.undo_change (catalog 4.8): undoes one entry of the edit log by writing its `before` back
// (docs/scripts.md, "Undo"). The undo is itself an entry of the log (same kind, before and after
// swapped, `undoes_edit_id` naming the entry), so undoing it redoes the change. A locked
// paragraph is skipped: the answer says so and nothing changes (undoing a lock itself unlocks).
// An entry whose paragraph or speaker changed since (its fields no longer hold what it left, or it
// is gone) is 409 conflict naming the newer entries to undo first; an entry undone already is 409
// too; a restore is undone by restoring its safety point (400).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { openForWrite } from "../document.js";
import { paragraphShape, presentParagraph } from "../present.js";
import { echoedRequest } from "../summary.js";
import { describeEdit, planUndo, undoState } from "../undo.js";

export default defineAction({
  name: "scripts.undo_change",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    edit_id: id(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "undoes one log entry; locked paragraphs are skipped",
  output: z.object({
    object: z.literal("script_undo"),
    script_id: z.string(),
    edit_id: z.string().describe("The entry asked to undo."),
    undone: z.boolean().describe("false when a locked paragraph kept it from being undone."),
    undo_edit_id: z.string().nullable().describe("The new log entry that undid it (undo it to redo the change)."),
    summary: z.string().describe("What the entry had done."),
    skipped: z
      .object({ reason: z.literal("locked"), paragraph_ids: z.array(z.string()), message: z.string() })
      .nullable()
      .describe("Locked paragraphs left as they were: the whole entry when undone is false; lines not given back by the undo of a speaker's removal otherwise."),
    paragraph: paragraphShape.nullable().describe("The paragraph as it is now, when the entry was about one."),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const inserted = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "First words." });
    const edited = await setup.action("scripts.set_paragraph_text", { script_id: script.script_id, paragraph_id: (inserted.paragraph as { paragraph_id: string }).paragraph_id, text: "Second thoughts." });
    return { script_id: script.script_id, edit_id: edited.edit_id };
  },
  async run({ tx, graphql }, input) {
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.undo_change");
    const entry = await tx.scriptEdit.findFirst({ where: { edit_id: input.edit_id, script_id: input.script_id } });
    if (!entry) throw new ApiError("not_found", `No edit '${input.edit_id}' in this script's log.`, { param: "edit_id" });
    const state = await undoState(tx, write.script);
    const summary = describeEdit(entry, state.speakers);
    const plan = planUndo(entry, state);

    if (plan.state === "blocked") {
      if (plan.reason === "not_undoable") throw new ApiError("invalid_request", plan.message, { param: "edit_id", details: { edit_id: entry.edit_id, kind: entry.kind, reason: plan.reason } });
      // The newer entries that stand in the way: the same paragraph's, or the script's own for a
      // change of the script or its cast.
      const newer = await tx.scriptEdit.findMany({
        where: { script_id: input.script_id, paragraph_id: entry.paragraph_id, undone_at: null, created_at: { gte: entry.created_at }, edit_id: { not: entry.edit_id } },
        orderBy: [{ created_at: "desc" }, { edit_id: "desc" }],
        select: { edit_id: true },
        take: 20,
      });
      throw new ApiError("conflict", plan.message, {
        param: "edit_id",
        details: { edit_id: entry.edit_id, kind: entry.kind, reason: plan.reason, newer_edit_ids: plan.reason === "already_undone" ? [] : newer.map((row) => row.edit_id) },
        hint: plan.reason === "already_undone" ? "Undo the entry that undid it to redo the change." : "Undo the newer entries first (newest first), or bring back a restore point with scripts.restore_snapshot.",
      });
    }

    const paragraphNow = async (paragraphId: string | null) => {
      if (!paragraphId) return null;
      const row = await tx.scriptParagraph.findUnique({ where: { paragraph_id: paragraphId } });
      return row ? presentParagraph(row) : null;
    };
    if (plan.state === "skipped") {
      const script = await write.unchanged();
      return {
        object: "script_undo" as const,
        script_id: input.script_id,
        edit_id: entry.edit_id,
        undone: false,
        undo_edit_id: null,
        summary,
        skipped: { reason: plan.reason, paragraph_ids: plan.paragraphIds, message: plan.message },
        paragraph: await paragraphNow(entry.paragraph_id),
        revision: script.revision,
        request: input.request ?? null,
      };
    }

    const outcome = await plan.apply(tx, write);
    const script = await write.done();
    return {
      object: "script_undo" as const,
      script_id: input.script_id,
      edit_id: entry.edit_id,
      undone: true,
      undo_edit_id: outcome.undoEditId,
      summary,
      skipped: outcome.skippedLocked.length
        ? { reason: "locked" as const, paragraph_ids: outcome.skippedLocked, message: "Locked lines were left with the base speaker (scripts.assign_speaker gives them back)." }
        : null,
      paragraph: await paragraphNow(outcome.paragraphId),
      revision: script.revision,
      request: input.request ?? null,
    };
  },
});
