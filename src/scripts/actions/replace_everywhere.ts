// scripts.replace_everywhere (catalog 4.9): swaps a string for another in every paragraph's words,
// changing nothing else (role, speaker, visual, note, recording stay; words are recounted). `find`
// is literal text, not a pattern; `match_case` (default false) compares case, `whole_word` (default
// false) matches only where no letter, digit or underscore touches either end. A document-wide
// pass: locked paragraphs are left as they are, and the ones that held a match are counted and
// named. One `paragraph.text` log entry per paragraph changed.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, request, text } from "../../actions/catalog/define.js";
import { openForWrite, wordsIn } from "../document.js";
import { echoedRequest } from "../summary.js";

/** The pattern of a literal `find`. */
export function findPattern(find: string, options: { matchCase?: boolean; wholeWord?: boolean }): RegExp {
  const literal = find.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const body = options.wholeWord ? `(?<![\\p{L}\\p{N}_])${literal}(?![\\p{L}\\p{N}_])` : literal;
  return new RegExp(body, options.matchCase ? "gu" : "giu");
}

export default defineAction({
  name: "scripts.replace_everywhere",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    find: z.string().min(1).max(1000),
    replace: text(1000),
    match_case: flag().optional(),
    whole_word: flag().optional(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "string swap across the document, changing nothing else",
  output: z.object({
    object: z.literal("script_replace"),
    script_id: z.string(),
    find: z.string(),
    replace: z.string(),
    replacements: z.number().int().describe("Occurrences replaced."),
    paragraphs_changed: z.number().int(),
    changed: z.array(z.object({ paragraph_id: z.string(), position: z.number().int(), replacements: z.number().int(), edit_id: z.string() })),
    locked_skipped: z.number().int().describe("Locked paragraphs that held a match and were left as they are."),
    locked_paragraph_ids: z.array(z.string()),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Colour is a colour." });
    return { script_id: script.script_id, find: "colour", replace: "color" };
  },
  async run({ tx, graphql }, input) {
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.replace_everywhere");
    const pattern = findPattern(input.find, { matchCase: input.match_case, wholeWord: input.whole_word });
    const paragraphs = await tx.scriptParagraph.findMany({ where: { script_id: input.script_id }, orderBy: { position: "asc" } });
    const changed: { paragraph_id: string; position: number; replacements: number; edit_id: string }[] = [];
    const locked: string[] = [];
    let replacements = 0;
    for (const paragraph of paragraphs) {
      const count = paragraph.text.match(pattern)?.length ?? 0;
      if (count === 0) continue;
      if (paragraph.locked) {
        locked.push(paragraph.paragraph_id);
        continue;
      }
      // A function replacement: `replace` is literal ($& and $1 are not patterns here).
      const text = paragraph.text.replace(pattern, () => input.replace);
      replacements += count;
      if (text === paragraph.text) continue;
      await tx.scriptParagraph.update({ where: { paragraph_id: paragraph.paragraph_id }, data: { text, word_count: wordsIn(text) } });
      const editId = await write.edit({ paragraphId: paragraph.paragraph_id, kind: "paragraph.text", before: { text: paragraph.text }, after: { text } });
      changed.push({ paragraph_id: paragraph.paragraph_id, position: paragraph.position, replacements: count, edit_id: editId });
    }
    const script = changed.length ? await write.done() : await write.unchanged();
    return {
      object: "script_replace" as const,
      script_id: input.script_id,
      find: input.find,
      replace: input.replace,
      replacements,
      paragraphs_changed: changed.length,
      changed,
      locked_skipped: locked.length,
      locked_paragraph_ids: locked,
      revision: script.revision,
      request: input.request ?? null,
    };
  },
});
