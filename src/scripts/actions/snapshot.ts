// scripts.snapshot (catalog 4.8): a named restore point of the document as it is (`reason:
// manual`), kept until the script is deleted. It changes nothing in the document: no edit is
// logged and the revision stays.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request, text } from "../../actions/catalog/define.js";
import { openForWrite } from "../document.js";
import { presentSnapshotSummary, snapshotSummaryShape } from "../present.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.snapshot",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    label: text(200).optional(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "named restore point",
  output: z.object({
    object: z.literal("script_snapshot"),
    script_id: z.string(),
    snapshot: snapshotSummaryShape,
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    return { script_id: script.script_id, label: "Before the rewrite" };
  },
  async run({ tx, graphql }, input) {
    // The manual point is the call's restore point: taken under the script's lock, like any write's.
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.snapshot", { reason: "manual", label: input.label?.trim() || null });
    return { object: "script_snapshot" as const, script_id: input.script_id, snapshot: presentSnapshotSummary(write.point), request: input.request ?? null };
  },
});
