// scripts.choose_clip (catalog 4.10; contract section 3): a finished clip of the paragraph becomes
// its chosen one (what the hand-over reads); the other attempts stay listed. Reversible, free. A
// clip still running may be chosen (the hand-over reads it once it is finished); a failed one
// cannot (400). Not an edit of the words: no log entry.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { clipShape, filmedClipExample, lockedClipOf, presentClip } from "../film/clips.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.choose_clip",
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
  purpose: "reversible, free",
  output: z.object({
    object: z.literal("script_clip_choice"),
    script_id: z.string(),
    paragraph_id: z.string(),
    chosen_clip_id: z.string(),
    previous_clip_id: z.string().nullable(),
    changed: z.boolean(),
    clip: clipShape,
    request: echoedRequest,
  }),
  example: filmedClipExample,
  async run({ tx, graphql }, input) {
    const { paragraph, clip } = await lockedClipOf(tx, graphql, input);
    if (clip.status === "failed") throw new ApiError("invalid_request", "The clip failed: there is nothing to choose.", { param: "clip_id", details: { status: clip.status, error_message: clip.error_message } });
    const previous = paragraph.chosen_clip_id;
    if (previous !== clip.clip_id) await tx.scriptParagraph.update({ where: { paragraph_id: paragraph.paragraph_id }, data: { chosen_clip_id: clip.clip_id } });
    return { object: "script_clip_choice" as const, script_id: input.script_id, paragraph_id: paragraph.paragraph_id, chosen_clip_id: clip.clip_id, previous_clip_id: previous, changed: previous !== clip.clip_id, clip: presentClip(clip, graphql.services.files, clip.clip_id), request: input.request ?? null };
  },
});
