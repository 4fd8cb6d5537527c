// scripts.translate (catalog 4.9): every unlocked paragraph, the title and the language field, in
// one call on the script's `model_ref`. Priced per unlocked paragraph, counted before anything is
// held; a paragraph the model leaves out is neither changed nor paid for (`ran`). The language
// field becomes `language_code` when sent, else `target_language`. Locked paragraphs stay in their
// language, skipped and counted. Each paragraph is a `paragraph.text` entry of the edit log, the
// title and language one `meta` entry.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, idempotencyKey, language, request } from "../../actions/catalog/define.js";
import { readScript } from "../document.js";
import { byLock, cleanText, PassWriter, passOutput } from "../writing/apply.js";
import { documentBlock, openIfUnchanged, passBrief, passText, readForPass } from "../writing/pass.js";

export default defineAction({
  name: "scripts.translate",
  method: "POST",
  scopes: ["scripts:execute"],
  credits: true,
  input: z.strictObject({
    script_id: id(),
    target_language: language(),
    language_code: language().optional(),
    request: request().optional(),
    idempotency_key: idempotencyKey().optional(),
  }),
  price: { credits: 1, per: "paragraph", note: "per unlocked paragraph; the service counts them" },
  weight: 2,
  purpose: "translates every unlocked paragraph, the title and the language field",
  mode: "model",
  uses: ["text"],
  output: passOutput("script_translation", {
    target_language: z.string(),
    language: z.string().describe("The script's language field now."),
    title: z.string().nullable().describe("The script's title now."),
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Morning coffee", language: "en" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Good coffee starts with fresh beans." });
    return { script_id: script.script_id, target_language: "French", language_code: "fr" };
  },
  async check({ graphql }, input) {
    await readScript(graphql.prisma, graphql, input.script_id);
  },
  async units({ graphql }, input) {
    return graphql.prisma.scriptParagraph.count({ where: { script_id: input.script_id, locked: false } });
  },
  async run({ graphql, db, providers, commit, ran }, input) {
    const document = await readForPass(db, graphql, input.script_id);
    const { open, locked } = byLock(document.paragraphs);
    const { model, text } = passText(providers, graphql, document.script, "document");
    const languageField = input.language_code ?? input.target_language;
    const title = document.script.title;
    const translated = new Map<string, string>();
    let newTitle = title;
    if (open.length || title) {
      const ids = open.map((row) => row.paragraph_id);
      const answer = await text.generateObject({
        system: "You translate video scripts for the voice: natural, idiomatic spoken language, same meaning, same facts, same tone. Follow the house style and every paragraph's instruction. Never translate a locked paragraph.",
        prompt: [
          passBrief(document),
          `Translate into: ${input.target_language}${input.language_code ? ` (${input.language_code})` : ""}`,
          title ? `Translate the title too: ${title}` : "The script has no title: answer null.",
          `Answer the translated words of each unlocked paragraph, by its id (${ids.length}).`,
          "",
          documentBlock(document.paragraphs),
        ].join("\n"),
        schema: z.object({
          title: z.string().min(1).max(500).nullable(),
          paragraphs: z.array(z.object({ paragraph_id: ids.length ? z.enum(ids as [string, ...string[]]) : z.string(), text: z.string().min(1).max(20_000) })).max(ids.length),
        }),
        schemaName: "script_translation",
      });
      for (const paragraph of answer.object.paragraphs) if (!translated.has(paragraph.paragraph_id) && cleanText(paragraph.text)) translated.set(paragraph.paragraph_id, cleanText(paragraph.text));
      if (title && answer.object.title?.trim()) newTitle = answer.object.title.trim();
    }
    // Paid per paragraph translated: one the model left out is not.
    ran(translated.size);
    return commit(async (tx) => {
      const writer = new PassWriter(tx, await openIfUnchanged(tx, graphql, document, "scripts.translate"), input.script_id);
      for (const paragraph of open) {
        const words = translated.get(paragraph.paragraph_id);
        if (words !== undefined) await writer.setText(paragraph, words);
      }
      await writer.setMeta(document.script, { title: newTitle, language: languageField });
      const { common, script } = await writer.finish(document, model, input.request, locked);
      return { object: "script_translation" as const, ...common, target_language: input.target_language, language: script.language ?? languageField, title: script.title };
    });
  },
});
