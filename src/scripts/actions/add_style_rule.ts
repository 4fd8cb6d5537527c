// scripts.add_style_rule (catalog 4.8): writes a rule into the workspace's style guide. GET with
// scripts:read although it writes, as the catalog lists it (docs/actions.md); a test key's write is
// rolled back. A rule is known by its kind and term: sending the same pair again rewrites that rule
// (the call states the whole rule; fields left out are cleared) and answers `created: false`.
// `preferred` and `spoken` rules need a replacement: without one they say nothing.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { STYLE_RULE_KINDS, id, name, request, text } from "../../actions/catalog/define.js";
import { newId } from "../../ids.js";
import { readScript } from "../document.js";
import { presentRule, ruleShape } from "../style-rules.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.add_style_rule",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z
    .strictObject({
      script_id: id(),
      kind: z.enum(STYLE_RULE_KINDS),
      term: name(),
      replacement: text(200).optional(),
      note: text(2000).optional(),
      brief: text(2000).optional(),
      request: request().optional(),
    })
    .superRefine((value, context) => {
      if (value.term.trim() === "") context.addIssue({ code: "custom", path: ["term"], message: "term must hold a word, not only spaces.", params: { type: "string.empty" } });
      if (value.kind !== "banned" && !value.replacement?.trim()) {
        context.addIssue({
          code: "custom",
          path: ["replacement"],
          message: value.kind === "preferred" ? "A preferred rule names what to write instead of term: send replacement." : "A spoken rule names how the voice says term: send replacement.",
          params: { type: "any.required" },
        });
      }
    }),
  weight: 1,
  purpose: "writes a rule into the workspace style guide (method and scope as listed)",
  output: z.object({
    object: z.literal("script_style_rule"),
    script_id: z.string(),
    rule: ruleShape,
    created: z.boolean().describe("false when a rule of this kind and term existed and was rewritten."),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    return { script_id: script.script_id, kind: "spoken", term: "SQL", replacement: "sequel", note: "How the team says it." };
  },
  async run({ tx, graphql }, input) {
    await readScript(tx, graphql, input.script_id);
    const workspaceId = graphql.auth.workspaceId;
    const term = input.term.trim().replace(/\s+/gu, " ");
    const fields = { replacement: input.replacement?.trim() || null, note: input.note?.trim() || null, brief: input.brief?.trim() || null };
    const key = { workspace_id_kind_term: { workspace_id: workspaceId, kind: input.kind, term } };
    const existing = await tx.styleRule.findUnique({ where: key, select: { rule_id: true } });
    const rule = await tx.styleRule.upsert({ where: key, create: { rule_id: newId("style_rule"), workspace_id: workspaceId, kind: input.kind, term, ...fields }, update: fields });
    return { object: "script_style_rule" as const, script_id: input.script_id, rule: presentRule(rule), created: !existing, request: input.request ?? null };
  },
});
