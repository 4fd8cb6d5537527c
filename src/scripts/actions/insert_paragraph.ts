// scripts.insert_paragraph (catalog 4.9): one paragraph after `after_paragraph_id`, or at the end
// without it; spoken by the base speaker, in the chapter given (or the chapter of the paragraph it
// follows).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, paragraphRole, request } from "../../actions/catalog/define.js";
import { paragraphText } from "../fields.js";
import { ApiError } from "../../errors/api-error.js";
import { newId } from "../../ids.js";
import { openForWrite, renumber, wordsIn } from "../document.js";
import { paragraphShape, presentParagraph } from "../present.js";
import { echoedRequest, paragraphOf } from "../summary.js";

export default defineAction({
  name: "scripts.insert_paragraph",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    text: paragraphText(),
    role: paragraphRole().optional(),
    after_paragraph_id: id().optional(),
    chapter_id: id().optional(),
    request: request().optional(),
  }),
  weight: 1,
  // The catalog leaves this cell empty.
  purpose: "inserts one paragraph after `after_paragraph_id`, or at the end without it",
  output: z.object({
    object: z.literal("script_paragraph"),
    script_id: z.string(),
    paragraph: paragraphShape,
    edit_id: z.string(),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    return { script_id: script.script_id, text: "An opening line.", role: "hook" };
  },
  async run({ tx, graphql }, input) {
    const scriptId = input.script_id;
    const write = await openForWrite(tx, graphql, scriptId, "scripts.insert_paragraph");
    const after = input.after_paragraph_id ? await paragraphOf(tx, scriptId, input.after_paragraph_id, "after_paragraph_id") : undefined;
    if (input.chapter_id && !(await tx.scriptChapter.findFirst({ where: { script_id: scriptId, chapter_id: input.chapter_id } }))) {
      throw new ApiError("not_found", `No chapter '${input.chapter_id}' in this script.`, { param: "chapter_id" });
    }
    const position = after ? after.position + 1 : write.script.paragraph_count;
    // Make room: the paragraphs from there on move one down.
    await tx.scriptParagraph.updateMany({ where: { script_id: scriptId, position: { gte: position } }, data: { position: { increment: 1 } } });
    const created = await tx.scriptParagraph.create({
      data: {
        paragraph_id: newId("script_paragraph"),
        script_id: scriptId,
        position,
        role: input.role ?? "body",
        text: input.text,
        word_count: wordsIn(input.text),
        chapter_id: input.chapter_id ?? after?.chapter_id ?? null,
      },
    });
    await renumber(tx, scriptId);
    const editId = await write.edit({ paragraphId: created.paragraph_id, kind: "paragraph.insert", after: presentParagraph(created) });
    const script = await write.done();
    return { object: "script_paragraph" as const, script_id: scriptId, paragraph: presentParagraph(created), edit_id: editId, revision: script.revision, request: input.request ?? null };
  },
});
