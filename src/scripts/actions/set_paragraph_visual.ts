// scripts.set_paragraph_visual (catalog 4.9): what is on screen while the paragraph is spoken —
// `direction` (shot direction), `kind` (a label of the caller's: broll, talking_head, screen, …),
// `broll_keywords` (search terms for footage), `image_prompt`, `src` (the picture itself: an
// image or video of the workspace, or a URL, which scripts.to_video draws first; checked to name
// something of the workspace). Send only what changes: the other
// parts stay; an empty string (or an empty keyword list) clears a part, and a visual with no part
// left is none. A direct edit by id: a locked paragraph too. Logged as `paragraph.visual`.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, label, prompt, request, text } from "../../actions/catalog/define.js";
import { Prisma } from "../../generated/prisma/client.js";
import { paragraphAnswer, setParagraphField } from "../paragraph-fields.js";
import { presentVisual } from "../present.js";
import { mediaRef, requireMedia } from "../handover.js";

export default defineAction({
  name: "scripts.set_paragraph_visual",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    paragraph_id: id(),
    direction: text(5000).optional(),
    kind: label().optional(),
    broll_keywords: z.array(text(100)).max(20).optional(),
    image_prompt: prompt().optional(),
    request: request().optional(),
    // Beyond the catalog's fields: the picture itself (docs/scripts.md, "Hand-over").
    src: z.union([mediaRef, z.literal("")]).optional(),
  }),
  weight: 1,
  purpose: "what is on screen while the paragraph is spoken",
  output: paragraphAnswer("The edit log entry (null when nothing changed)."),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "The city wakes up." });
    return { script_id: script.script_id, paragraph_id: (paragraph.paragraph as { paragraph_id: string }).paragraph_id, direction: "Slow aerial over rooftops at dawn", kind: "broll", broll_keywords: ["city dawn", "rooftops"] };
  },
  async check({ graphql }, input) {
    if (input.src) await requireMedia(graphql.prisma, graphql.auth.workspaceId, input.src, ["image", "video"], "src");
  },
  run: (call, input) =>
    setParagraphField(call, "scripts.set_paragraph_visual", input, {
      kind: "paragraph.visual",
      key: "visual",
      current: (row) => presentVisual(row.visual),
      next(before) {
        const base = before ?? { direction: null, kind: null, broll_keywords: [], image_prompt: null, src: null };
        const cleared = (value: string | undefined, current: string | null) => (value === undefined ? current : value.trim() === "" ? null : value);
        const keywords = input.broll_keywords?.map((keyword) => keyword.trim()).filter((keyword) => keyword !== "");
        const merged = {
          direction: cleared(input.direction, base.direction),
          kind: input.kind ?? base.kind,
          broll_keywords: keywords ?? base.broll_keywords,
          image_prompt: cleared(input.image_prompt, base.image_prompt),
          src: cleared(input.src, base.src),
        };
        const empty = merged.direction === null && merged.kind === null && merged.broll_keywords.length === 0 && merged.image_prompt === null && merged.src === null;
        return empty ? null : merged;
      },
      data: (visual) => ({ visual: visual ?? Prisma.DbNull }),
    }),
});
