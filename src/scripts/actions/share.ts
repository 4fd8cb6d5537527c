// scripts.share (catalog 4.8; contract section 3, "Review link of a script"): the review link on
// (`enabled` true) or off (false), notes allowed or not (`allow_notes`), and `rotate` true to
// replace the token so the old link stops working. Fields left out stay as they are; a first
// `enabled` true mints the token. The token is minted by the service (192 random bits) and cannot
// be chosen. Switching the link off keeps its token: switched on again, the same link works (rotate
// to hand out a new one). The answer's `url` is the link while it is on, null while it is off. A
// write to the script: restore point first, `share` in the edit log (the token never is).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, request } from "../../actions/catalog/define.js";
import { currentRequestContext } from "../../context/request-context.js";
import { openForWrite } from "../document.js";
import { mintShareToken, reviewUrl } from "../review/token.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.share",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    enabled: flag().optional(),
    allow_notes: flag().optional(),
    rotate: flag().optional(),
    request: request().optional(),
  }),
  weight: 1,
  purpose:
    "review link on or off, notes allowed, token rotation; the token is minted by the service and cannot be chosen",
  output: z.object({
    object: z.literal("script_share"),
    script_id: z.string(),
    enabled: z.boolean().describe("The review link works."),
    allow_notes: z.boolean().describe("Reviewers may leave notes through it (scripts.notes lists them)."),
    url: z.string().nullable().describe("The review link, opened in a browser without a key; null while the link is off."),
    rotated: z.boolean().describe("This call replaced the token: the previous link no longer works."),
    edit_id: z.string().nullable().describe("The edit log entry (null when nothing changed)."),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    return { script_id: script.script_id, enabled: true, allow_notes: true };
  },
  async run({ tx, graphql }, input) {
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.share");
    const before = write.script;
    const enabled = input.enabled ?? before.share_enabled;
    const allowNotes = input.allow_notes ?? before.share_allow_notes;
    const rotated = input.rotate === true && before.share_token !== null;
    const token = input.rotate === true || (enabled && before.share_token === null) ? mintShareToken() : before.share_token;
    let editId: string | null = null;
    if (enabled !== before.share_enabled || allowNotes !== before.share_allow_notes || token !== before.share_token) {
      await tx.script.update({ where: { script_id: input.script_id }, data: { share_enabled: enabled, share_allow_notes: allowNotes, share_token: token } });
      editId = await write.edit({
        kind: "share",
        before: { enabled: before.share_enabled, allow_notes: before.share_allow_notes },
        after: { enabled, allow_notes: allowNotes, rotated },
      });
    }
    const script = await write.done();
    const baseUrl = currentRequestContext()?.baseUrl ?? "";
    return {
      object: "script_share" as const,
      script_id: input.script_id,
      enabled,
      allow_notes: allowNotes,
      url: enabled && token ? reviewUrl(baseUrl, token) : null,
      rotated,
      edit_id: editId,
      revision: script.revision,
      request: input.request ?? null,
    };
  },
});
