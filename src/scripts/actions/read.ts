// scripts.read (catalog 4.9): the full text of paragraphs, in script order. With no filter, the
// whole script. Filters narrow together: `paragraph_ids` (each must be in the script), `from` /
// `to` (an inclusive range, each a paragraph id or a 0-based position), `role`, and `query` (words
// a paragraph contains, any case).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, paragraphIds, paragraphRole, request, text } from "../../actions/catalog/define.js";
import { paragraphBound } from "../fields.js";
import { ApiError } from "../../errors/api-error.js";
import { loadView, type ViewParagraph } from "../analysis/view.js";
import { paragraphShape, presentParagraph } from "../present.js";
import { echoedRequest } from "../summary.js";

/** A bound's position: a paragraph id's, or the number itself (as JSON or as query-string digits). */
function positionOf(bound: string | number, paragraphs: readonly ViewParagraph[], param: "from" | "to"): number {
  if (typeof bound === "number") return bound;
  if (/^\d+$/.test(bound)) return Number(bound);
  const found = paragraphs.find((paragraph) => paragraph.row.paragraph_id === bound);
  if (!found) throw new ApiError("not_found", `No paragraph '${bound}' in this script.`, { param });
  return found.row.position;
}

export default defineAction({
  name: "scripts.read",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    paragraph_ids: paragraphIds().optional(),
    from: paragraphBound().optional(),
    to: paragraphBound().optional(),
    role: paragraphRole().optional(),
    query: text(200).optional(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "full text of paragraphs; with no filter reads the whole script",
  output: z.object({
    object: z.literal("script_text"),
    script_id: z.string(),
    title: z.string().nullable(),
    paragraphs: z.array(
      paragraphShape.extend({
        speaker_name: z.string().describe("Who says it (the base speaker when none is assigned)."),
        chapter_title: z.string().nullable(),
        start_ms: z.number().int().describe("Where it starts in the running order (scripts.timing)."),
        timecode: z.string().describe("start_ms as HH:MM:SS.mmm."),
      }),
    ),
    text: z.string().describe("The paragraphs' words, in order, a blank line between paragraphs."),
    matched: z.number().int().describe("Paragraphs returned."),
    words: z.number().int().describe("Words in the paragraphs returned."),
    total_paragraphs: z.number().int().describe("Paragraphs in the script."),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Cats purr when they are content.", role: "hook" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "They also purr when they are hurt." });
    return { script_id: script.script_id, from: 0, to: 1, query: "purr" };
  },
  async run({ tx, graphql }, input) {
    const view = await loadView(tx, graphql, input.script_id);
    let paragraphs = view.paragraphs;
    if (input.paragraph_ids) {
      const wanted = new Set(input.paragraph_ids);
      const missing = [...wanted].filter((paragraphId) => !paragraphs.some((paragraph) => paragraph.row.paragraph_id === paragraphId));
      if (missing.length) throw new ApiError("not_found", `No paragraph ${missing.map((paragraphId) => `'${paragraphId}'`).join(", ")} in this script.`, { param: "paragraph_ids", details: { missing } });
      paragraphs = paragraphs.filter((paragraph) => wanted.has(paragraph.row.paragraph_id));
    }
    const from = input.from === undefined ? 0 : positionOf(input.from, view.paragraphs, "from");
    const to = input.to === undefined ? Number.MAX_SAFE_INTEGER : positionOf(input.to, view.paragraphs, "to");
    if (from > to) throw new ApiError("invalid_request", `from (position ${from}) comes after to (position ${to}).`, { param: "from" });
    paragraphs = paragraphs.filter((paragraph) => paragraph.row.position >= from && paragraph.row.position <= to);
    if (input.role) paragraphs = paragraphs.filter((paragraph) => paragraph.row.role === input.role);
    const query = input.query?.trim().toLowerCase();
    if (query) paragraphs = paragraphs.filter((paragraph) => paragraph.row.text.toLowerCase().includes(query));
    return {
      object: "script_text" as const,
      script_id: input.script_id,
      title: view.document.script.title,
      paragraphs: paragraphs.map((paragraph) => ({
        ...presentParagraph(paragraph.row),
        speaker_name: paragraph.speaker_name,
        chapter_title: paragraph.chapter_title,
        start_ms: paragraph.timing.start_ms,
        timecode: paragraph.timecode,
      })),
      text: paragraphs.map((paragraph) => paragraph.row.text).join("\n\n"),
      matched: paragraphs.length,
      words: paragraphs.reduce((sum, paragraph) => sum + paragraph.row.word_count, 0),
      total_paragraphs: view.paragraphs.length,
      request: input.request ?? null,
    };
  },
});
