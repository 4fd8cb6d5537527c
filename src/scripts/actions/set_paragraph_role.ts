// scripts.set_paragraph_role (catalog 4.9): gives the paragraphs one role (hook, intro, body,
// transition, example, punchline, cta, outro). A direct edit by id: locked paragraphs too. One
// `paragraph.role` log entry per paragraph whose role changed; the others are left as they were.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, paragraphIds, paragraphRole, request } from "../../actions/catalog/define.js";
import { openForWrite } from "../document.js";
import { paragraphsOf } from "../paragraphs.js";
import { paragraphShape, presentParagraph } from "../present.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.set_paragraph_role",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    paragraph_ids: paragraphIds(),
    role: paragraphRole(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "role is one of `hook`, `intro`, `body`, `transition`, `example`, `punchline`, `cta`, `outro`",
  output: z.object({
    object: z.literal("script_paragraphs"),
    script_id: z.string(),
    paragraphs: z.array(paragraphShape).describe("The paragraphs named, in document order, as they are now."),
    changed: z.array(z.object({ paragraph_id: z.string(), edit_id: z.string() })).describe("Those whose role changed."),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Subscribe for more." });
    return { script_id: script.script_id, paragraph_ids: [(paragraph.paragraph as { paragraph_id: string }).paragraph_id], role: "cta" };
  },
  async run({ tx, graphql }, input) {
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.set_paragraph_role");
    const rows = await paragraphsOf(tx, input.script_id, input.paragraph_ids);
    const changed = [];
    const paragraphs = [];
    for (const row of rows) {
      if (row.role === input.role) {
        paragraphs.push(presentParagraph(row));
        continue;
      }
      const updated = await tx.scriptParagraph.update({ where: { paragraph_id: row.paragraph_id }, data: { role: input.role } });
      changed.push({ paragraph_id: row.paragraph_id, edit_id: await write.edit({ paragraphId: row.paragraph_id, kind: "paragraph.role", before: { role: row.role }, after: { role: input.role } }) });
      paragraphs.push(presentParagraph(updated));
    }
    const script = changed.length ? await write.done() : await write.unchanged();
    return { object: "script_paragraphs" as const, script_id: input.script_id, paragraphs, changed, revision: script.revision, request: input.request ?? null };
  },
});
