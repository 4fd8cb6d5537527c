// scripts.snippets (catalog 4.8): the workspace's shelf of reusable lines, newest first; `search`
// keeps those whose title or text contains it (any case) or that carry it as a tag. A list like
// every list: `limit` 1 to 100 (default 25), `cursor` from `next_cursor`. The script named is the
// one being written (its workspace's shelf is shown); nothing changes.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { cursor, id, limit, request, text } from "../../actions/catalog/define.js";
import { listOutput } from "../../actions/framework/outputs.js";
import { afterKeyset, pageOf } from "../../actions/framework/paging.js";
import { readScript } from "../document.js";
import { NEWEST_FIRST, presentSnippet, snippetFilter, snippetShape } from "../snippets.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.snippets",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    search: text(200).optional(),
    limit: limit().optional(),
    request: request().optional(),
    cursor: cursor().optional(),
  }),
  weight: 1,
  purpose: "reusable lines of the workspace",
  output: listOutput(snippetShape).extend({ request: echoedRequest }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    await setup.action("scripts.save_snippet", { script_id: script.script_id, text: "Like and subscribe for more.", title: "Sign-off", tags: ["outro"] });
    return { script_id: script.script_id, search: "subscribe" };
  },
  async run({ tx, graphql }, input) {
    await readScript(tx, graphql, input.script_id);
    const where = snippetFilter(graphql.auth.workspaceId, input.search);
    const page = await pageOf(
      input,
      (window) => tx.scriptSnippet.findMany({ where: { AND: [where, afterKeyset(window.after, "created_at", "snippet_id")] }, orderBy: NEWEST_FIRST, skip: window.skip, take: window.take }),
      (row) => ({ at: row.created_at, id: row.snippet_id }),
    );
    return { object: "list" as const, data: page.rows.map(presentSnippet), has_more: page.has_more, next_cursor: page.next_cursor, limit: page.limit, request: input.request ?? null };
  },
});
