// scripts.delete_clip (catalog 4.10; contract section 3): removes a clip attempt from the
// paragraph. When it was the chosen one, the newest surviving finished clip becomes chosen (none:
// no clip chosen). The file stays on storage and nothing is refunded. A clip still running is
// deleted too: its operation skips it and it is not charged.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { lockScript } from "../document.js";
import { echoedRequest, paragraphOf } from "../summary.js";

export default defineAction({
  name: "scripts.delete_clip",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    paragraph_id: id(),
    clip_id: id(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "see Document 1 section 3",
  output: z.object({
    object: z.literal("script_clip_deletion"),
    script_id: z.string(),
    paragraph_id: z.string(),
    deleted_clip_id: z.string(),
    chosen_clip_id: z.string().nullable().describe("The chosen clip now (null: none)."),
    chosen_changed: z.boolean(),
    file_kept: z.boolean().describe("The clip's file stays on storage."),
    credits_refunded: z.literal(0),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Hello there." });
    await setup.action("scripts.set_speaker_face", { script_id: script.script_id, image_url: (await setup.image()).url });
    await setup.action("scripts.voice", { script_id: script.script_id, voice_ref: "local/en-us" });
    const filmed = await setup.action("scripts.film", { script_id: script.script_id, model_id: "local/still" });
    const clipId = (filmed.clips as { clip_id: string }[])[0]?.clip_id ?? "clip_missing";
    return { script_id: script.script_id, paragraph_id: (paragraph.paragraph as { paragraph_id: string }).paragraph_id, clip_id: clipId };
  },
  async run({ tx, graphql }, input) {
    await lockScript(tx, graphql, input.script_id);
    const paragraph = await paragraphOf(tx, input.script_id, input.paragraph_id);
    const clip = await tx.scriptClip.findFirst({ where: { clip_id: input.clip_id, paragraph_id: paragraph.paragraph_id } });
    if (!clip) throw new ApiError("not_found", `No clip '${input.clip_id}' of this paragraph.`, { param: "clip_id" });
    await tx.scriptClip.delete({ where: { clip_id: clip.clip_id } });
    const wasChosen = paragraph.chosen_clip_id === clip.clip_id;
    let chosen = paragraph.chosen_clip_id;
    if (wasChosen) {
      const newest = await tx.scriptClip.findFirst({ where: { paragraph_id: paragraph.paragraph_id, status: "completed" }, orderBy: [{ created_at: "desc" }, { clip_id: "desc" }] });
      chosen = newest?.clip_id ?? null;
      await tx.scriptParagraph.update({ where: { paragraph_id: paragraph.paragraph_id }, data: { chosen_clip_id: chosen } });
    }
    return { object: "script_clip_deletion" as const, script_id: input.script_id, paragraph_id: paragraph.paragraph_id, deleted_clip_id: clip.clip_id, chosen_clip_id: chosen, chosen_changed: wasChosen, file_kept: clip.storage_key !== null, credits_refunded: 0 as const, request: input.request ?? null };
  },
});
