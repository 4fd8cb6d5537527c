// scripts.delete_take (catalog 4.10; contract section 3): deletes takes of one paragraph
// (`take_id` or `take_ids`). When the chosen take goes, the newest remaining take becomes chosen;
// when it was the last take, the paragraph is unvoiced again. Credits are not refunded. With
// `keep_chosen` the chosen take is kept even if named (reported in `kept`). The files are removed
// from storage once the deletion committed. Not an edit of the words: no restore point, no log.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, request, requireOneOf } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { lockScript } from "../document.js";
import { echoedRequest, paragraphOf } from "../summary.js";
import { unsharedKeys } from "../voice/takes.js";

export default defineAction({
  name: "scripts.delete_take",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: requireOneOf(
    z.strictObject({
      script_id: id(),
      paragraph_id: id(),
      take_id: id().optional(),
      take_ids: z.array(id()).min(1).max(50).optional(),
      keep_chosen: flag().optional(),
      request: request().optional(),
    }),
    ["take_id", "take_ids"],
  ),
  weight: 1,
  purpose: "a paragraph keeps a limited number of takes and the oldest falls off the end",
  output: z.object({
    object: z.literal("script_take_deletion"),
    script_id: z.string(),
    paragraph_id: z.string(),
    deleted_take_ids: z.array(z.string()),
    kept: z.array(z.string()).describe("Named takes kept because keep_chosen protected the chosen one."),
    chosen_take_id: z.string().nullable().describe("The chosen take now; null: the paragraph is unvoiced again."),
    chosen_changed: z.boolean(),
    remaining: z.number().int().describe("Takes the paragraph still keeps."),
    credits_refunded: z.literal(0).describe("Deleting a take never gives its credits back."),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Hello there." });
    const paragraphId = (paragraph.paragraph as { paragraph_id: string }).paragraph_id;
    const voiced = await setup.action("scripts.voice", { script_id: script.script_id, voice_ref: "local/en-us" });
    const takeIds = (voiced.voiced as { take_ids: string[] }[])[0]?.take_ids ?? ["take_missing"];
    return { script_id: script.script_id, paragraph_id: paragraphId, take_id: takeIds[0]! };
  },
  async run({ tx, graphql, afterCommit }, input) {
    await lockScript(tx, graphql, input.script_id);
    const paragraph = await paragraphOf(tx, input.script_id, input.paragraph_id);
    const named = [...new Set([...(input.take_id ? [input.take_id] : []), ...(input.take_ids ?? [])])];
    const takes = await tx.scriptTake.findMany({ where: { paragraph_id: paragraph.paragraph_id }, orderBy: [{ created_at: "asc" }, { take_id: "asc" }] });
    const missing = named.filter((takeId) => !takes.some((take) => take.take_id === takeId));
    if (missing.length) throw new ApiError("not_found", `No take ${missing.map((takeId) => `'${takeId}'`).join(", ")} of this paragraph.`, { param: input.take_id && missing.includes(input.take_id) ? "take_id" : "take_ids", details: { missing } });
    const kept = input.keep_chosen && paragraph.chosen_take_id && named.includes(paragraph.chosen_take_id) ? [paragraph.chosen_take_id] : [];
    const doomed = takes.filter((take) => named.includes(take.take_id) && !kept.includes(take.take_id));
    await tx.scriptTake.deleteMany({ where: { take_id: { in: doomed.map((take) => take.take_id) } } });
    const remaining = takes.filter((take) => !doomed.includes(take));
    const chosenGone = paragraph.chosen_take_id !== null && doomed.some((take) => take.take_id === paragraph.chosen_take_id);
    // The newest surviving take, or none: the paragraph is unvoiced again.
    const chosen = chosenGone ? (remaining[remaining.length - 1]?.take_id ?? null) : paragraph.chosen_take_id;
    if (chosenGone) await tx.scriptParagraph.update({ where: { paragraph_id: paragraph.paragraph_id }, data: { chosen_take_id: chosen } });
    const files = graphql.services.files.storage;
    const unshared = await unsharedKeys(tx, doomed.map((take) => take.storage_key));
    afterCommit(() => Promise.all(unshared.map((key) => files.delete(key))));
    return {
      object: "script_take_deletion" as const,
      script_id: input.script_id,
      paragraph_id: paragraph.paragraph_id,
      deleted_take_ids: doomed.map((take) => take.take_id),
      kept,
      chosen_take_id: chosen,
      chosen_changed: chosenGone,
      remaining: remaining.length,
      credits_refunded: 0 as const,
      request: input.request ?? null,
    };
  },
});
