// scripts.snapshots (catalog 4.8): the script's restore points, newest first, without their copies:
// `auto` ones (one before the first write of every write call; the newest 50 are kept), `manual`
// ones (scripts.snapshot) and `safety` ones (taken by scripts.restore_snapshot before it restores);
// manual and safety points are all kept. Paged like every list.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { cursor, id, request } from "../../actions/catalog/define.js";
import { listOutput } from "../../actions/framework/outputs.js";
import { afterKeyset, pageOf } from "../../actions/framework/paging.js";
import { readScript } from "../document.js";
import { presentSnapshotSummary, snapshotSummaryShape } from "../present.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.snapshots",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({ script_id: id(), request: request().optional(), cursor: cursor().optional() }),
  weight: 1,
  purpose: "restore points, newest first; one is taken automatically before the first write of any call",
  output: listOutput(snapshotSummaryShape).extend({ script_id: z.string(), request: echoedRequest }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "A first line." });
    return { script_id: script.script_id };
  },
  async run({ tx, graphql }, input) {
    await readScript(tx, graphql, input.script_id);
    const page = await pageOf(
      { cursor: input.cursor },
      ({ after, take }) =>
        tx.scriptSnapshot.findMany({
          where: { script_id: input.script_id, ...afterKeyset(after, "created_at", "snapshot_id") },
          orderBy: [{ created_at: "desc" }, { snapshot_id: "desc" }],
          select: { snapshot_id: true, label: true, reason: true, action: true, word_count: true, created_at: true },
          take,
        }),
      (row) => ({ at: row.created_at, id: row.snapshot_id }),
    );
    return {
      object: "list" as const,
      data: page.rows.map(presentSnapshotSummary),
      has_more: page.has_more,
      next_cursor: page.next_cursor,
      limit: page.limit,
      script_id: input.script_id,
      request: input.request ?? null,
    };
  },
});
