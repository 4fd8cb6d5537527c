// scripts.list (catalog 4.8): the workspace's scripts, newest edit first (`updated_at`: every write
// call moves it), each with its id, length (words, paragraphs), runtime estimated from its words and
// voiced share. Paged like every list (`cursor`), and `skip` rows from the top, as the catalog
// names it; `search` looks in titles and topics.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { cursor, limit, skip, text } from "../../actions/catalog/define.js";
import { listOutput } from "../../actions/framework/outputs.js";
import { afterKeyset, pageOf } from "../../actions/framework/paging.js";
import { ApiError } from "../../errors/api-error.js";
import { escapeLike } from "../../resources/list.js";
import { presentScript, scriptSummaryShape } from "../summary.js";
import { rateOf } from "../timing.js";

export const scriptListItem = scriptSummaryShape
  .extend({
    estimated_ms: z.number().int().describe("Runtime estimated from the words at the language's speaking rate (as scripts.open)."),
    voiced_share: z.number().min(0).max(1).describe("Share of paragraphs with a chosen take, 0 to 1; 0 until recordings exist (scripts.voice)."),
  })
  .meta({ id: "ScriptListItem", description: "A script in scripts.list: its meta and counters, runtime and voiced share." });

export default defineAction({
  name: "scripts.list",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({
    search: text(200).optional(),
    limit: limit().optional(),
    skip: skip().optional(),
    cursor: cursor().optional(),
  }),
  weight: 1,
  purpose: "scripts of the workspace, newest edit first, with id, length, runtime, voiced share",
  output: listOutput(scriptListItem),
  async run({ tx, graphql }, input) {
    if (input.cursor !== undefined && input.skip !== undefined) throw new ApiError("invalid_request", "Use either cursor or skip, not both.", { param: "skip" });
    const search = input.search?.trim();
    const where = {
      workspace_id: graphql.auth.workspaceId,
      ...(search && { OR: [{ title: { contains: escapeLike(search), mode: "insensitive" as const } }, { topic: { contains: escapeLike(search), mode: "insensitive" as const } }] }),
    };
    const page = await pageOf(
      { limit: input.limit, cursor: input.cursor },
      ({ after, skip: offset, take }) =>
        tx.script.findMany({
          where: { AND: [where, afterKeyset(after, "updated_at", "script_id")] },
          orderBy: [{ updated_at: "desc" }, { script_id: "desc" }],
          skip: offset + (after ? 0 : (input.skip ?? 0)),
          take,
        }),
      (row) => ({ at: row.updated_at, id: row.script_id }),
    );

    // Runtime from the stored counts, paragraph by paragraph as scripts.open estimates it: words
    // (or, for languages written without spaces, characters) at the language's rate, over the
    // paragraph's playback rate.
    const ids = page.rows.map((row) => row.script_id);
    const counts = ids.length
      ? await tx.$queryRaw<{ script_id: string; word_count: number; characters: number; playback_rate: number | null }[]>`
          SELECT script_id, word_count, length(regexp_replace(text, '\\s', '', 'g'))::int AS characters, playback_rate
          FROM script_paragraphs WHERE script_id = ANY(${ids})`
      : [];
    const data = page.rows.map((row) => {
      const rate = rateOf(row.language);
      const estimated = counts
        .filter((count) => count.script_id === row.script_id)
        .reduce((sum, count) => sum + Math.round((((rate.unit === "words" ? count.word_count : count.characters) / rate.per_minute) * 60_000) / (count.playback_rate ?? 1)), 0);
      // Takes are not recorded yet (scripts.voice): nothing is voiced.
      return { ...presentScript(row), estimated_ms: estimated, voiced_share: 0 };
    });
    return { object: "list" as const, data, has_more: page.has_more, next_cursor: page.next_cursor, limit: page.limit };
  },
});
