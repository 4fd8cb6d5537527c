// scripts.style_guide (catalog 4.8): the workspace's rules, by kind. `banned` and `preferred`
// shape the writing (writing passes get them in every prompt; scripts.report counts their breaks);
// `spoken` acts on the voice only (scripts.speech_check shows what the voice is handed). The
// script named is the one being written: the guide is its workspace's. Changes nothing.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request } from "../../actions/catalog/define.js";
import { readScript } from "../document.js";
import { presentRule, ruleShape, workspaceRules } from "../style-rules.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.style_guide",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({ script_id: id(), request: request().optional() }),
  weight: 1,
  purpose:
    "workspace rules of three kinds: `banned` and `preferred` shape the writing and go into every prompt; `spoken` acts on the voice only",
  output: z.object({
    object: z.literal("script_style_guide"),
    script_id: z.string(),
    banned: z.array(ruleShape).describe("Terms never to write; replacement, when given, is what to write instead."),
    preferred: z.array(ruleShape).describe("Terms the house says otherwise: write replacement instead of term."),
    spoken: z.array(ruleShape).describe("How the voice says a term: term is replaced by replacement in what the voice is handed."),
    rules: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    await setup.action("scripts.add_style_rule", { script_id: script.script_id, kind: "banned", term: "utilize", replacement: "use" });
    return { script_id: script.script_id };
  },
  async run({ tx, graphql }, input) {
    await readScript(tx, graphql, input.script_id);
    const rules = (await workspaceRules(tx, graphql.auth.workspaceId)).map(presentRule);
    return {
      object: "script_style_guide" as const,
      script_id: input.script_id,
      banned: rules.filter((rule) => rule.kind === "banned"),
      preferred: rules.filter((rule) => rule.kind === "preferred"),
      spoken: rules.filter((rule) => rule.kind === "spoken"),
      rules: rules.length,
      request: input.request ?? null,
    };
  },
});
