// scripts.changes (catalog 4.8): the raw edit log, newest first — every entry with its kind and the
// exact `before` / `after` it holds (what scripts.undo_change writes back), undone ones included.
// `paragraph_id` keeps the entries of one paragraph; `before` (an edit_id) starts after that entry,
// as `cursor` does (one or the other). scripts.history is the readable summary of the same log.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { cursor, id, limit, request } from "../../actions/catalog/define.js";
import { listOutput } from "../../actions/framework/outputs.js";
import { afterKeyset, pageOf, type Keyset } from "../../actions/framework/paging.js";
import { ApiError } from "../../errors/api-error.js";
import { readScript } from "../document.js";
import { editShape, presentEdit } from "../present.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.changes",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    paragraph_id: id().optional(),
    limit: limit().optional(),
    before: id().optional(),
    request: request().optional(),
    cursor: cursor().optional(),
  }),
  weight: 1,
  purpose: "edit log, newest first",
  output: listOutput(editShape).extend({ script_id: z.string(), request: echoedRequest }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "A logged line." });
    return { script_id: script.script_id, limit: 10 };
  },
  async run({ tx, graphql }, input) {
    await readScript(tx, graphql, input.script_id);
    if (input.before !== undefined && input.cursor !== undefined) throw new ApiError("invalid_request", "Use either before or cursor, not both.", { param: "before" });
    let start: Keyset | undefined;
    if (input.before !== undefined) {
      const entry = await tx.scriptEdit.findFirst({ where: { edit_id: input.before, script_id: input.script_id }, select: { edit_id: true, created_at: true } });
      if (!entry) throw new ApiError("not_found", `No edit '${input.before}' in this script's log.`, { param: "before" });
      start = { at: entry.created_at, id: entry.edit_id };
    }
    const page = await pageOf(
      { limit: input.limit, cursor: input.cursor },
      ({ after, take }) =>
        tx.scriptEdit.findMany({
          where: { script_id: input.script_id, ...(input.paragraph_id !== undefined && { paragraph_id: input.paragraph_id }), ...afterKeyset(after ?? start, "created_at", "edit_id") },
          orderBy: [{ created_at: "desc" }, { edit_id: "desc" }],
          take,
        }),
      (row) => ({ at: row.created_at, id: row.edit_id }),
    );
    return {
      object: "list" as const,
      data: page.rows.map(presentEdit),
      has_more: page.has_more,
      next_cursor: page.next_cursor,
      limit: page.limit,
      script_id: input.script_id,
      request: input.request ?? null,
    };
  },
});
