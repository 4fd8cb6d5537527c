// scripts.history (catalog 4.8): the change history for people, newest first — one entry per edit
// log entry, with its edit_id, a sentence saying what it did, where its paragraph is now, who made
// it, and whether scripts.undo_change can undo it now (and if not, why). No raw before/after:
// scripts.changes has them. `paragraph_id` keeps one paragraph's history.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { cursor, id, limit, request } from "../../actions/catalog/define.js";
import { listOutput } from "../../actions/framework/outputs.js";
import { afterKeyset, pageOf } from "../../actions/framework/paging.js";
import { readScript } from "../document.js";
import { echoedRequest } from "../summary.js";
import { describeEdit, planUndo, undoState } from "../undo.js";

const historyEntry = z
  .object({
    edit_id: z.string().describe("What scripts.undo_change takes."),
    summary: z.string().describe("What the change did, in a sentence."),
    kind: z.string(),
    action: z.string().describe("The action whose call made it."),
    paragraph_id: z.string().nullable(),
    paragraph_position: z.number().int().nullable().describe("Where the paragraph is now; null when it is gone or the entry is about the script."),
    key_id: z.string().nullable().describe("The API key whose call made it."),
    created_at: z.iso.datetime(),
    undone: z.boolean(),
    undoes_edit_id: z.string().nullable().describe("Set on an entry that undid another."),
    can_undo: z.boolean().describe("scripts.undo_change would undo it now."),
    undo_blocked_by: z
      .enum(["already_undone", "changed_since", "gone", "not_undoable", "locked"])
      .nullable()
      .describe("Why it cannot be undone now: undone already, changed by a newer entry, its paragraph or speaker gone, a kind undone otherwise (a restore), or a locked paragraph."),
  })
  .meta({ id: "ScriptHistoryEntry", description: "A change of a script, as a person reads it." });

export default defineAction({
  name: "scripts.history",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    paragraph_id: id().optional(),
    limit: limit().optional(),
    request: request().optional(),
    cursor: cursor().optional(),
  }),
  weight: 1,
  purpose: "change history, newest first; each entry has an `edit_id`",
  output: listOutput(historyEntry).extend({ script_id: z.string(), request: echoedRequest }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "A line with a past." });
    return { script_id: script.script_id };
  },
  async run({ tx, graphql }, input) {
    const script = await readScript(tx, graphql, input.script_id);
    const page = await pageOf(
      { limit: input.limit, cursor: input.cursor },
      ({ after, take }) =>
        tx.scriptEdit.findMany({
          where: { script_id: input.script_id, ...(input.paragraph_id !== undefined && { paragraph_id: input.paragraph_id }), ...afterKeyset(after, "created_at", "edit_id") },
          orderBy: [{ created_at: "desc" }, { edit_id: "desc" }],
          take,
        }),
      (row) => ({ at: row.created_at, id: row.edit_id }),
    );
    const state = await undoState(tx, script);
    const data = page.rows.map((entry) => {
      const plan = planUndo(entry, state);
      const paragraph = entry.paragraph_id ? state.paragraphs.find((row) => row.paragraph_id === entry.paragraph_id) : undefined;
      return {
        edit_id: entry.edit_id,
        summary: describeEdit(entry, state.speakers),
        kind: entry.kind,
        action: entry.action,
        paragraph_id: entry.paragraph_id,
        paragraph_position: paragraph?.position ?? null,
        key_id: entry.key_id,
        created_at: entry.created_at.toISOString(),
        undone: entry.undone_at !== null,
        undoes_edit_id: entry.undoes_edit_id,
        can_undo: plan.state === "ready",
        undo_blocked_by: plan.state === "ready" ? null : plan.reason,
      };
    });
    return { object: "list" as const, data, has_more: page.has_more, next_cursor: page.next_cursor, limit: page.limit, script_id: input.script_id, request: input.request ?? null };
  },
});
