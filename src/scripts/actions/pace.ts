// scripts.pace (catalog 4.10): the playback rate of paragraphs (all of them without
// paragraph_ids), 0.75 to 3, stored on the document. `rate: null` or `clear: true` makes it follow
// the listener or export setting again; 1 is a rate of its own (it ignores the listener's speed),
// not the same as null. `clear` with a rate is 422. A write of the document: restore point, one
// `paragraph.pace` entry per paragraph whose rate changed (undoable), a new revision.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, paragraphIds, request, requireOneOf } from "../../actions/catalog/define.js";
import { validationFailed } from "../../validation/issues.js";
import { openForWrite } from "../document.js";
import { paragraphsOf } from "../paragraphs.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.pace",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: requireOneOf(
    z.strictObject({
      script_id: id(),
      paragraph_ids: paragraphIds().optional(),
      rate: z.number().min(0.75).max(3).nullable().optional(),
      clear: flag().optional(),
      request: request().optional(),
    }),
    ["rate", "clear"],
  ),
  weight: 1,
  purpose:
    "playback rate 0.75 to 3 stored on the document; `null` follows the listener or export setting; 1 is not null",
  output: z.object({
    object: z.literal("script_pace"),
    script_id: z.string(),
    rate: z.number().nullable().describe("The rate set; null: the paragraphs follow the listener or export setting."),
    paragraphs: z.array(z.object({ paragraph_id: z.string(), position: z.number().int(), playback_rate: z.number().nullable() })),
    changed: z.array(z.object({ paragraph_id: z.string(), edit_id: z.string() })),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Hello there." });
    return { script_id: script.script_id, rate: 1.25 };
  },
  async run({ tx, graphql }, input) {
    if (input.clear && input.rate !== undefined && input.rate !== null) {
      throw validationFailed([{ path: "clear", message: "Send a rate or clear, not both (clear means rate null).", type: "any.invalid" }]);
    }
    if (input.clear === false && input.rate === undefined) {
      throw validationFailed([{ path: "clear", message: "clear: false alone changes nothing: send a rate, or clear: true.", type: "any.invalid" }]);
    }
    const rate = input.clear ? null : (input.rate ?? null);
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.pace");
    const rows = input.paragraph_ids
      ? await paragraphsOf(tx, input.script_id, input.paragraph_ids)
      : await tx.scriptParagraph.findMany({ where: { script_id: input.script_id }, orderBy: { position: "asc" } });
    const changed = [];
    for (const row of rows.filter((paragraph) => paragraph.playback_rate !== rate)) {
      await tx.scriptParagraph.update({ where: { paragraph_id: row.paragraph_id }, data: { playback_rate: rate } });
      changed.push({ paragraph_id: row.paragraph_id, edit_id: await write.edit({ paragraphId: row.paragraph_id, kind: "paragraph.pace", before: { playback_rate: row.playback_rate }, after: { playback_rate: rate } }) });
    }
    const script = changed.length ? await write.done() : await write.unchanged();
    return {
      object: "script_pace" as const,
      script_id: input.script_id,
      rate,
      paragraphs: rows.map((row) => ({ paragraph_id: row.paragraph_id, position: row.position, playback_rate: rate })),
      changed,
      revision: script.revision,
      request: input.request ?? null,
    };
  },
});
