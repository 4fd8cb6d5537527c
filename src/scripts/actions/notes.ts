// scripts.notes (catalog 4.8): reviewers' notes on a script, left through its review link (never
// through the API: docs/scripts.md, "Review"), oldest first, resolved ones included; `open_only`
// keeps the open ones. Deleted notes are gone. Each names its paragraph and where that paragraph
// now stands (null once the paragraph was deleted, or for a note on the whole script).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, request } from "../../actions/catalog/define.js";
import { readScript } from "../document.js";
import { reviewNoteShape, presentReviewNote } from "../review/notes.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.notes",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    open_only: flag().optional(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "reviewer notes, resolved ones included; posting a note is not reachable through the API",
  output: z.object({
    object: z.literal("script_notes"),
    script_id: z.string(),
    notes: z.array(reviewNoteShape),
    open: z.number().int().describe("Open notes on the script."),
    resolved: z.number().int().describe("Resolved notes on the script."),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    return { script_id: script.script_id, open_only: true };
  },
  async run({ tx, graphql }, input) {
    await readScript(tx, graphql, input.script_id);
    const [rows, paragraphs] = await Promise.all([
      tx.scriptNote.findMany({ where: { script_id: input.script_id, status: input.open_only ? "open" : { in: ["open", "resolved"] } }, orderBy: [{ created_at: "asc" }, { note_id: "asc" }] }),
      tx.scriptParagraph.findMany({ where: { script_id: input.script_id }, select: { paragraph_id: true, position: true, text: true } }),
    ]);
    const counts = await tx.scriptNote.groupBy({ by: ["status"], where: { script_id: input.script_id, status: { in: ["open", "resolved"] } }, _count: { _all: true } });
    const countOf = (status: string) => counts.find((row) => row.status === status)?._count._all ?? 0;
    const byId = new Map(paragraphs.map((paragraph) => [paragraph.paragraph_id, paragraph]));
    return {
      object: "script_notes" as const,
      script_id: input.script_id,
      notes: rows.map((row) => presentReviewNote(row, byId)),
      open: countOf("open"),
      resolved: countOf("resolved"),
      request: input.request ?? null,
    };
  },
});
