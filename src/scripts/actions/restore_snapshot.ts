// scripts.restore_snapshot (catalog 4.8): takes a safety point of the document as it is (`reason:
// safety`, kept until the script is deleted), then restores the full copy of the restore point:
// meta, chapters, cast and paragraphs, locked ones included (a restore is the author's explicit
// choice), each with its id. Logged as one `document.restore` entry naming both points; restoring
// the safety point undoes it. The restore point itself stays.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { openForWrite } from "../document.js";
import { presentSnapshotSummary, snapshotSummaryShape } from "../present.js";
import { copyOf, restoreCopy } from "../restore.js";
import { echoedRequest, presentScript, scriptSummaryShape } from "../summary.js";

export default defineAction({
  name: "scripts.restore_snapshot",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    snapshot_id: id(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "takes its own safety point first",
  output: z.object({
    object: z.literal("script_restore"),
    script: scriptSummaryShape,
    restored: snapshotSummaryShape.describe("The restore point brought back."),
    safety_point: snapshotSummaryShape.describe("The document as it was just before: restore it to undo this."),
    edit_id: z.string(),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const point = await setup.action("scripts.snapshot", { script_id: script.script_id, label: "Empty" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Added after the point." });
    return { script_id: script.script_id, snapshot_id: (point.snapshot as { snapshot_id: string }).snapshot_id };
  },
  async run({ tx, graphql }, input) {
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.restore_snapshot", { reason: "safety", label: `Before restoring ${input.snapshot_id}` });
    // Looked up once the script is the caller's (and locked), so another workspace learns nothing.
    const snapshot = await tx.scriptSnapshot.findFirst({ where: { snapshot_id: input.snapshot_id, script_id: input.script_id } });
    if (!snapshot) throw new ApiError("not_found", `No restore point '${input.snapshot_id}' of this script.`, { param: "snapshot_id" });
    await restoreCopy(tx, input.script_id, copyOf(snapshot.document));
    const editId = await write.edit({
      kind: "document.restore",
      before: { snapshot_id: write.point.snapshot_id, revision: write.script.revision },
      after: { snapshot_id: snapshot.snapshot_id, label: snapshot.label },
    });
    const script = await write.done();
    return {
      object: "script_restore" as const,
      script: presentScript(script),
      restored: presentSnapshotSummary(snapshot),
      safety_point: presentSnapshotSummary(write.point),
      edit_id: editId,
      revision: script.revision,
      request: input.request ?? null,
    };
  },
});
