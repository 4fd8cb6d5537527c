// scripts.insert_snippet (catalog 4.8): drops a saved snippet into the script unchanged — its
// words exactly as shelved, its role (body when it has none) — as a new paragraph after
// `after_paragraph_id` (at the end without it), in that paragraph's chapter. A write like
// insert_paragraph: restore point first, `paragraph.insert` in the edit log. Without `snippet_id`
// it writes nothing and lists the shelf instead (newest first, the first 25; `query` filters by
// title, words or tag).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request, text } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { newId } from "../../ids.js";
import { openForWrite, readScript, renumber, wordsIn } from "../document.js";
import { paragraphShape, presentParagraph } from "../present.js";
import { NEWEST_FIRST, presentSnippet, snippetFilter, snippetShape } from "../snippets.js";
import { echoedRequest, paragraphOf } from "../summary.js";

/** Snippets listed when no snippet_id is sent. */
export const SHELF_SHOWN = 25;

export default defineAction({
  name: "scripts.insert_snippet",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    snippet_id: id().optional(),
    after_paragraph_id: id().optional(),
    query: text(200).optional(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "drops a saved snippet in unchanged; without `snippet_id` it lists the shelf",
  output: z.object({
    object: z.literal(["script_paragraph", "script_snippet_shelf"]).describe("script_paragraph when a snippet was inserted; script_snippet_shelf when the shelf is listed."),
    script_id: z.string(),
    paragraph: paragraphShape.nullable().describe("The paragraph made from the snippet."),
    snippet: snippetShape.nullable().describe("The snippet inserted."),
    edit_id: z.string().nullable(),
    revision: z.number().int(),
    snippets: z.array(snippetShape).describe("The shelf (without snippet_id): newest first, at most 25."),
    has_more: z.boolean().describe("More snippets match than are listed (scripts.snippets pages through them all)."),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const saved = await setup.action("scripts.save_snippet", { script_id: script.script_id, text: "Thanks for watching.", role: "outro" });
    return { script_id: script.script_id, snippet_id: (saved.snippet as { snippet_id: string }).snippet_id };
  },
  async run({ tx, graphql }, input) {
    const scriptId = input.script_id;
    const workspaceId = graphql.auth.workspaceId;
    if (input.snippet_id === undefined) {
      const script = await readScript(tx, graphql, scriptId);
      const rows = await tx.scriptSnippet.findMany({ where: snippetFilter(workspaceId, input.query), orderBy: NEWEST_FIRST, take: SHELF_SHOWN + 1 });
      return {
        object: "script_snippet_shelf" as const,
        script_id: scriptId,
        paragraph: null,
        snippet: null,
        edit_id: null,
        revision: script.revision,
        snippets: rows.slice(0, SHELF_SHOWN).map(presentSnippet),
        has_more: rows.length > SHELF_SHOWN,
        request: input.request ?? null,
      };
    }
    const write = await openForWrite(tx, graphql, scriptId, "scripts.insert_snippet");
    const snippet = await tx.scriptSnippet.findFirst({ where: { snippet_id: input.snippet_id, workspace_id: workspaceId } });
    if (!snippet) throw new ApiError("not_found", `No snippet '${input.snippet_id}' on this workspace's shelf.`, { param: "snippet_id" });
    const after = input.after_paragraph_id ? await paragraphOf(tx, scriptId, input.after_paragraph_id, "after_paragraph_id") : undefined;
    const position = after ? after.position + 1 : write.script.paragraph_count;
    // Make room: the paragraphs from there on move one down.
    await tx.scriptParagraph.updateMany({ where: { script_id: scriptId, position: { gte: position } }, data: { position: { increment: 1 } } });
    const created = await tx.scriptParagraph.create({
      data: {
        paragraph_id: newId("script_paragraph"),
        script_id: scriptId,
        position,
        role: snippet.role ?? "body",
        text: snippet.text,
        word_count: wordsIn(snippet.text),
        chapter_id: after?.chapter_id ?? null,
      },
    });
    await renumber(tx, scriptId);
    const editId = await write.edit({ paragraphId: created.paragraph_id, kind: "paragraph.insert", after: presentParagraph(created) });
    const script = await write.done();
    return {
      object: "script_paragraph" as const,
      script_id: scriptId,
      paragraph: presentParagraph(created),
      snippet: presentSnippet(snippet),
      edit_id: editId,
      revision: script.revision,
      snippets: [],
      has_more: false,
      request: input.request ?? null,
    };
  },
});
