// scripts.delete_clip (catalog 4.10; contract section 3): removes a clip attempt from the
// paragraph. When it was the chosen one, the newest surviving finished clip becomes chosen (none:
// no clip chosen). The file stays on storage and nothing is refunded. A clip still running is
// deleted too: its operation skips it and it is not charged.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request } from "../../actions/catalog/define.js";
import { filmedClipExample, lockedClipOf } from "../film/clips.js";
import { echoedRequest } from "../summary.js";

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
  example: filmedClipExample,
  async run({ tx, graphql }, input) {
    const { paragraph, clip } = await lockedClipOf(tx, graphql, input);
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
