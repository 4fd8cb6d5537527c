// scripts.save_snippet (catalog 4.8): puts a line on the workspace's snippet shelf — a paragraph
// of this script (`paragraph_id`: its words, and its role unless `role` is sent) or words sent as
// `text`. With both, `text` is saved (a paragraph's words as edited for the shelf) and the
// paragraph gives the role. GET with scripts:read although it writes, as the catalog lists it
// (docs/actions.md); a test key's write is rolled back. The words are kept exactly as they are, so
// scripts.insert_snippet drops them in unchanged.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, label, paragraphRole, request, requireOneOf, text } from "../../actions/catalog/define.js";
import { paragraphText } from "../fields.js";
import { ApiError } from "../../errors/api-error.js";
import { newId } from "../../ids.js";
import { readScript } from "../document.js";
import { presentSnippet, snippetShape } from "../snippets.js";
import { echoedRequest, paragraphOf } from "../summary.js";

export default defineAction({
  name: "scripts.save_snippet",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: requireOneOf(
    z
      .strictObject({
        script_id: id(),
        paragraph_id: id().optional(),
        text: paragraphText().optional(),
        title: text(200).optional(),
        role: paragraphRole().optional(),
        tags: z.array(label()).max(20).optional(),
        request: request().optional(),
      })
      .superRefine((value, context) => {
        if (value.text !== undefined && value.text.trim() === "") {
          context.addIssue({ code: "custom", path: ["text"], message: "text must hold words.", params: { type: "string.empty" } });
        }
      }),
    ["paragraph_id", "text"],
  ),
  weight: 1,
  purpose: "saves a paragraph to the snippet library (method and scope as listed)",
  output: z.object({
    object: z.literal("script_snippet"),
    script_id: z.string(),
    snippet: snippetShape,
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "If this helped, share it with a friend.", role: "cta" });
    return { script_id: script.script_id, paragraph_id: (paragraph.paragraph as { paragraph_id: string }).paragraph_id, title: "Share ask", tags: ["cta", "short"] };
  },
  async run({ tx, graphql }, input) {
    await readScript(tx, graphql, input.script_id);
    const paragraph = input.paragraph_id ? await paragraphOf(tx, input.script_id, input.paragraph_id) : undefined;
    if (input.text === undefined && paragraph && paragraph.text.trim() === "") throw new ApiError("invalid_request", "The paragraph has no words to save.", { param: "paragraph_id" });
    const snippet = await tx.scriptSnippet.create({
      data: {
        snippet_id: newId("script_snippet"),
        workspace_id: graphql.auth.workspaceId,
        title: input.title?.trim() || null,
        text: input.text ?? paragraph!.text,
        role: input.role ?? paragraph?.role ?? null,
        tags: [...new Set(input.tags ?? [])],
        source_script_id: input.script_id,
      },
    });
    return { object: "script_snippet" as const, script_id: input.script_id, snippet: presentSnippet(snippet), request: input.request ?? null };
  },
});
