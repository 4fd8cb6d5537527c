// scripts.takes (catalog 4.10): the kept takes of each paragraph (newest first), the chosen one,
// and whether it is stale (recorded from other words than the paragraph has now). Free.
// `stale_only` keeps paragraphs whose chosen take is stale, `missing_only` those with no chosen
// take; both together keep either.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, paragraphIds, request } from "../../actions/catalog/define.js";
import { readScript } from "../document.js";
import { paragraphsOf } from "../paragraphs.js";
import { echoedRequest } from "../summary.js";
import { MAX_TAKES, presentTake, takesByParagraph, takeShape, textHash } from "../voice/takes.js";

export const takeStatus = z.enum(["voiced", "stale", "unvoiced"]).describe("voiced: its chosen take speaks its words; stale: the words changed since; unvoiced: no take chosen.");

export default defineAction({
  name: "scripts.takes",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    paragraph_ids: paragraphIds().optional(),
    stale_only: flag().optional(),
    missing_only: flag().optional(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "kept takes per paragraph, the chosen one, duration, voice, staleness; free",
  output: z.object({
    object: z.literal("script_takes"),
    script_id: z.string(),
    max_takes: z.number().int().describe("Takes a paragraph keeps; the oldest that is not chosen falls off."),
    paragraphs: z.array(
      z.object({
        paragraph_id: z.string(),
        position: z.number().int(),
        status: takeStatus,
        chosen_take_id: z.string().nullable(),
        takes: z.array(takeShape).describe("Newest first."),
      }),
    ),
    counts: z.object({ voiced: z.number().int(), stale: z.number().int(), unvoiced: z.number().int() }).describe("Over the paragraphs asked for, before stale_only / missing_only."),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    return { script_id: script.script_id };
  },
  async run({ tx, graphql }, input) {
    await readScript(tx, graphql, input.script_id);
    const rows = input.paragraph_ids
      ? await paragraphsOf(tx, input.script_id, input.paragraph_ids)
      : await tx.scriptParagraph.findMany({ where: { script_id: input.script_id }, orderBy: { position: "asc" } });
    const takes = await takesByParagraph(tx, rows.map((row) => row.paragraph_id));
    const counts = { voiced: 0, stale: 0, unvoiced: 0 };
    const paragraphs = rows.map((row) => {
      const kept = takes.get(row.paragraph_id) ?? [];
      const chosen = kept.find((take) => take.take_id === row.chosen_take_id);
      const status = !chosen ? "unvoiced" : chosen.text_hash === textHash(row.text) ? "voiced" : "stale";
      counts[status]++;
      return {
        paragraph_id: row.paragraph_id,
        position: row.position,
        status,
        chosen_take_id: chosen?.take_id ?? null,
        takes: [...kept].reverse().map((take) => presentTake(take, graphql.services.files, { text: row.text, chosen_take_id: chosen?.take_id ?? null })),
      } as const;
    });
    const filtered = input.stale_only || input.missing_only
      ? paragraphs.filter((paragraph) => (input.stale_only && paragraph.status === "stale") || (input.missing_only && paragraph.status === "unvoiced"))
      : paragraphs;
    return { object: "script_takes" as const, script_id: input.script_id, max_takes: MAX_TAKES, paragraphs: filtered, counts, request: input.request ?? null };
  },
});
