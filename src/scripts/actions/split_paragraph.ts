// scripts.split_paragraph (catalog 4.9): one paragraph cut into two or three, on the script's
// `quick_model_ref`. The model chooses where to cut and may smooth the seams; the first part keeps
// the paragraph's id, and with it its role, speaker, chapter, visual, note, history and recording
// (a take recorded from the longer words is then stale, as after any edit of the words). The new
// parts are inserted right after it, with its role, speaker and chapter. A locked paragraph is
// refused (400, before anything is held): a lock keeps passes away. Logged as one `paragraph.text`
// and one `paragraph.insert` per new part.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, idempotencyKey, request } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { readScript } from "../document.js";
import { paragraphOf } from "../summary.js";
import { cleanText, PassWriter, passOutput } from "../writing/apply.js";
import { openIfUnchanged, paragraphBlock, passBrief, passText, readForPass } from "../writing/pass.js";

export default defineAction({
  name: "scripts.split_paragraph",
  method: "POST",
  scopes: ["scripts:execute"],
  credits: true,
  input: z.strictObject({
    script_id: id(),
    paragraph_id: id(),
    request: request().optional(),
    idempotency_key: idempotencyKey().optional(),
  }),
  price: { credits: 1, per: "call" },
  weight: 2,
  purpose: "two or three parts; the first keeps the original id, history and recording",
  mode: "model",
  uses: ["text"],
  output: passOutput("script_split", {
    parts: z.array(z.string()).describe("The paragraph ids of the parts, in order: the first is the paragraph split."),
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const paragraph = await setup.action("scripts.insert_paragraph", {
      script_id: script.script_id,
      text: "Roasting at home is cheaper than you think. All you need is a pan and green beans. The smell fills the house, so open a window.",
    });
    return { script_id: script.script_id, paragraph_id: (paragraph.paragraph as { paragraph_id: string }).paragraph_id };
  },
  async check({ graphql }, input) {
    await readScript(graphql.prisma, graphql, input.script_id);
    const paragraph = await paragraphOf(graphql.prisma, input.script_id, input.paragraph_id);
    if (paragraph.locked) {
      throw new ApiError("invalid_request", "The paragraph is locked: a lock keeps writing passes away.", {
        param: "paragraph_id",
        hint: "Unlock it with scripts.lock_paragraphs (locked: false) first.",
      });
    }
  },
  async run({ graphql, db, providers, commit }, input) {
    const document = await readForPass(db, graphql, input.script_id);
    const paragraph = document.paragraphs.find((row) => row.paragraph_id === input.paragraph_id)!;
    const { model, text } = passText(providers, graphql, document.script, "quick");
    const answer = await text.generateObject({
      system: "You split one paragraph of a video script into two or three shorter paragraphs, each a complete thought that reads well aloud on its own. Keep every fact and the order of ideas; smooth the seams only where needed. Follow the house style and the paragraph's instruction.",
      prompt: [passBrief(document), "\nSplit this paragraph into two or three parts:", paragraphBlock(paragraph)].join("\n"),
      schema: z.object({ parts: z.array(z.string().min(1).max(20_000)).min(2).max(3) }),
      schemaName: "paragraph_split",
    });
    const parts = answer.object.parts.map(cleanText).filter((part) => part !== "");
    if (parts.length < 2) {
      throw new ApiError("upstream_error", "The model did not answer two or three parts; nothing was changed.", { details: { capability: "text", model, reason: "invalid_answer" }, hint: "Retrying may succeed." });
    }
    return commit(async (tx) => {
      const writer = new PassWriter(tx, await openIfUnchanged(tx, graphql, document, "scripts.split_paragraph"), input.script_id);
      await writer.setText(paragraph, parts[0]!);
      const added = await writer.insert(paragraph.position + 1, parts.slice(1).map((words) => ({ text: words, role: paragraph.role, chapter_id: paragraph.chapter_id, speaker_id: paragraph.speaker_id })));
      const { common } = await writer.finish(document, model, input.request, []);
      return { object: "script_split" as const, ...common, parts: [paragraph.paragraph_id, ...added.map((row) => row.paragraph_id)] };
    });
  },
});
