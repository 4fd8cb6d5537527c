// scripts.set_paragraph_role (catalog 4.9): gives the paragraphs one role (hook, intro, body,
// transition, example, punchline, cta, outro). A direct edit by id: locked paragraphs too. One
// `paragraph.role` log entry per paragraph whose role changed; the others are left as they were.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, paragraphIds, paragraphRole, request } from "../../actions/catalog/define.js";
import { paragraphsAnswer, setParagraphsField } from "../paragraph-fields.js";

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
  output: paragraphsAnswer("role"),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Subscribe for more." });
    return { script_id: script.script_id, paragraph_ids: [(paragraph.paragraph as { paragraph_id: string }).paragraph_id], role: "cta" };
  },
  run: (call, input) =>
    setParagraphsField(call, "scripts.set_paragraph_role", input, {
      kind: "paragraph.role",
      key: "role",
      current: (row) => row.role,
      next: () => input.role,
      data: (role) => ({ role }),
    }),
});
