// scripts.choose_take (catalog 4.10; contract section 3): a kept take of the paragraph becomes its
// chosen one — what the player, export, subtitle timing and hand-over read; the other takes are
// kept. Choosing is not an edit of the words: no restore point, no log entry, the revision stays.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { lockScript } from "../document.js";
import { echoedRequest, paragraphOf } from "../summary.js";
import { presentTake, takeShape } from "../voice/takes.js";

export default defineAction({
  name: "scripts.choose_take",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    paragraph_id: id(),
    take_id: id(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "the chosen take is the one the player, export, subtitle timing and video hand-over read",
  output: z.object({
    object: z.literal("script_take_choice"),
    script_id: z.string(),
    paragraph_id: z.string(),
    chosen_take_id: z.string(),
    previous_take_id: z.string().nullable(),
    changed: z.boolean().describe("False when the take was the chosen one already."),
    take: takeShape,
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Hello there." });
    const paragraphId = (paragraph.paragraph as { paragraph_id: string }).paragraph_id;
    const voiced = await setup.action("scripts.voice", { script_id: script.script_id, voice_ref: "local/en-us", takes: 2 });
    const takeIds = (voiced.voiced as { take_ids: string[] }[])[0]?.take_ids ?? ["take_missing"];
    return { script_id: script.script_id, paragraph_id: paragraphId, take_id: takeIds[takeIds.length - 1]! };
  },
  async run({ tx, graphql }, input) {
    await lockScript(tx, graphql, input.script_id);
    const paragraph = await paragraphOf(tx, input.script_id, input.paragraph_id);
    const take = await tx.scriptTake.findFirst({ where: { take_id: input.take_id, paragraph_id: paragraph.paragraph_id } });
    if (!take) throw new ApiError("not_found", `No take '${input.take_id}' of this paragraph.`, { param: "take_id" });
    const previous = paragraph.chosen_take_id;
    if (previous !== take.take_id) await tx.scriptParagraph.update({ where: { paragraph_id: paragraph.paragraph_id }, data: { chosen_take_id: take.take_id } });
    return {
      object: "script_take_choice" as const,
      script_id: input.script_id,
      paragraph_id: paragraph.paragraph_id,
      chosen_take_id: take.take_id,
      previous_take_id: previous,
      changed: previous !== take.take_id,
      take: presentTake(take, graphql.services.files, { text: paragraph.text, chosen_take_id: take.take_id }),
      request: input.request ?? null,
    };
  },
});
