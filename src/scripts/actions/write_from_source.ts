// scripts.write_from_source (catalog 4.8): a script written from a source — text sent as
// `source_text`, or the page at `source_url` read through the URL guard — on the script's
// `model_ref`. `fidelity` `close` (the default) keeps the source's order and claims and adds none;
// `loose` may reorder, cut and reframe, still adding no fact. `replace` (default true) replaces
// the unlocked paragraphs (locked ones stay where they are); `replace: false` appends the draft.
// With `source_url`, the page (or, with `source_text` too, the text sent under that address) is
// filed as a source of the script. 409 `conflict` when the script changed while the model worked.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { LONG_TEXT, SOURCE_FIDELITIES, flag, id, idempotencyKey, prompt, request, requireOneOf, text, url } from "../../actions/catalog/define.js";
import { paragraphCount } from "../fields.js";
import { readScript } from "../document.js";
import { sourceShape } from "../present.js";
import { PassWriter, passOutput } from "../writing/apply.js";
import { cleanDraft, countLine, draftSchema, lockedContext, writeDraft } from "../writing/draft.js";
import { pageForPrompt, readPage } from "../writing/pages.js";
import { documentBlock, openIfUnchanged, passBrief, passText, readForPass } from "../writing/pass.js";

const FIDELITY: Record<"close" | "loose", string> = {
  close: "Fidelity: close. Keep the source's order and every claim as the source makes it; add no claim, number or example the source does not hold.",
  loose: "Fidelity: loose. Reorder, cut and reframe freely for a good video, but add no fact, number or claim the source does not hold.",
};

export default defineAction({
  name: "scripts.write_from_source",
  method: "POST",
  scopes: ["scripts:execute"],
  credits: true,
  input: requireOneOf(
    z.strictObject({
      script_id: id(),
      source_url: url().optional(),
      source_text: text(LONG_TEXT).optional(),
      source_title: text(500).optional(),
      fidelity: z.enum(SOURCE_FIDELITIES).optional(),
      instruction: prompt().optional(),
      paragraph_count: paragraphCount().optional(),
      replace: flag().optional(),
      request: request().optional(),
      idempotency_key: idempotencyKey().optional(),
    }),
    ["source_url", "source_text"],
  ),
  price: { credits: 3, per: "call" },
  weight: 2,
  purpose: "replaces paragraphs; `fidelity` is `close` (keeps source order and claims) or `loose`",
  mode: "model",
  uses: ["text"],
  output: passOutput("script_draft", {
    fidelity: z.enum(SOURCE_FIDELITIES),
    replace: z.boolean(),
    sources: z.array(sourceShape).describe("The source filed on the script (when the call named `source_url`)."),
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example", tone: "curious" });
    return {
      script_id: script.script_id,
      source_title: "Why cats purr",
      source_text: "Cats purr at a frequency between 25 and 150 hertz. Mother cats purr to guide their kittens, and cats in pain purr too.",
      fidelity: "close",
      paragraph_count: 2,
    };
  },
  async check({ graphql }, input) {
    await readScript(graphql.prisma, graphql, input.script_id);
  },
  async run({ graphql, db, providers, commit }, input) {
    const document = await readForPass(db, graphql, input.script_id);
    const fidelity = input.fidelity ?? "close";
    const replace = input.replace ?? true;
    // Text sent is the source; a URL alone is read (outside any transaction).
    const page = input.source_text?.trim() ? undefined : await readPage(providers, input.source_url!, "source_url");
    const sourceText = input.source_text?.trim() ? input.source_text.trim() : page!.text;
    const sourceTitle = input.source_title?.trim() || page?.title.trim() || null;
    const { model, text } = passText(providers, graphql, document.script, "document");
    const answer = await text.generateObject({
      system: "You write video scripts from a source: short spoken paragraphs, each with its role. Every fact comes from the source. Follow the house style.",
      prompt: [
        passBrief(document),
        FIDELITY[fidelity],
        countLine(input.paragraph_count),
        input.instruction?.trim() ? `Instruction: ${input.instruction.trim()}` : undefined,
        replace
          ? lockedContext(document.paragraphs)
          : `The draft is appended after the script as it stands:\n${documentBlock(document.paragraphs)}`,
        "",
        `Source${sourceTitle ? `: ${sourceTitle}` : ""}`,
        pageForPrompt(sourceText),
      ].filter((line) => line !== undefined).join("\n"),
      schema: z.object({ paragraphs: draftSchema(input.paragraph_count) }),
      schemaName: "script_draft",
    });
    const draft = cleanDraft(answer.object.paragraphs);
    return commit(async (tx) => {
      const writer = new PassWriter(tx, await openIfUnchanged(tx, graphql, document, "scripts.write_from_source"), input.script_id);
      await writeDraft(writer, document.paragraphs, draft, { replace });
      const sources = input.source_url ? [await writer.fileSource({ url: input.source_url, title: sourceTitle, text: sourceText })] : [];
      const { common } = await writer.finish(document, model, input.request, replace ? document.paragraphs.filter((row) => row.locked).map((row) => row.paragraph_id) : []);
      return { object: "script_draft" as const, ...common, fidelity, replace, sources };
    });
  },
});
