// scripts.polish (catalog 4.9): an editing pass over the whole document, on the script's
// `model_ref`. The model reads every paragraph (locked ones as context, marked "do not change")
// with the brief every writing prompt carries, and answers new words for the unlocked ones; each
// changed paragraph is one `paragraph.text` entry of the edit log. Locked paragraphs are skipped
// and counted. 409 `conflict` when the script changed while the model was working.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, idempotencyKey, prompt, request } from "../../actions/catalog/define.js";
import { readScript } from "../document.js";
import { byLock, cleanText, PassWriter, passOutput } from "../writing/apply.js";
import { documentBlock, openIfUnchanged, passBrief, passText, readForPass } from "../writing/pass.js";

export default defineAction({
  name: "scripts.polish",
  method: "POST",
  scopes: ["scripts:execute"],
  credits: true,
  input: z.strictObject({
    script_id: id(),
    instruction: prompt().optional(),
    request: request().optional(),
    idempotency_key: idempotencyKey().optional(),
  }),
  price: { credits: 3, per: "call" },
  weight: 2,
  purpose: "editing pass over the whole document; locked paragraphs are skipped and counted",
  mode: "model",
  uses: ["text"],
  output: passOutput("script_polish", {}),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example", tone: "warm" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "So basically coffee is, like, really good in the morning." });
    return { script_id: script.script_id, instruction: "Tighten it." };
  },
  async check({ graphql }, input) {
    await readScript(graphql.prisma, graphql, input.script_id);
  },
  async run({ graphql, db, providers, commit, ran }, input) {
    const document = await readForPass(db, graphql, input.script_id);
    const { open, locked } = byLock(document.paragraphs);
    const { model, text } = passText(providers, graphql, document.script, "document");
    const edits = new Map<string, string>();
    if (open.length) {
      const ids = open.map((row) => row.paragraph_id) as [string, ...string[]];
      const answer = await text.generateObject({
        system: "You are a script editor. Edit each unlocked paragraph for clarity, rhythm and flow when spoken aloud, keeping its meaning, facts and role. Follow the house style and every paragraph's instruction. Never change a locked paragraph.",
        prompt: [
          passBrief(document),
          input.instruction?.trim() ? `Editing instruction: ${input.instruction.trim()}` : undefined,
          `Answer the edited words of each unlocked paragraph, by its id (${ids.length} paragraph${ids.length === 1 ? "" : "s"}).`,
          "",
          documentBlock(document.paragraphs),
        ].filter((line) => line !== undefined).join("\n"),
        schema: z.object({ paragraphs: z.array(z.object({ paragraph_id: z.enum(ids), text: z.string().min(1).max(20_000) })).max(ids.length) }),
        schemaName: "script_polish",
      });
      for (const paragraph of answer.object.paragraphs) if (!edits.has(paragraph.paragraph_id) && cleanText(paragraph.text)) edits.set(paragraph.paragraph_id, cleanText(paragraph.text));
    }
    // Nothing to work on (no unlocked paragraph): no model call, nothing spent.
    if (!open.length) ran(0);
    return commit(async (tx) => {
      const writer = new PassWriter(tx, await openIfUnchanged(tx, graphql, document, "scripts.polish"), input.script_id);
      for (const paragraph of open) {
        const words = edits.get(paragraph.paragraph_id);
        if (words !== undefined) await writer.setText(paragraph, words);
      }
      const { common } = await writer.finish(document, model, input.request, locked);
      return { object: "script_polish" as const, ...common };
    });
  },
});
