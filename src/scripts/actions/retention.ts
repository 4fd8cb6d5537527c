// scripts.retention (catalog 4.9): where a viewer is likely to stop. Per paragraph, its timecode,
// the reasons a viewer may leave there (each with a fixed weight) and the risk they add up to;
// `likely_stop` is the first high-risk paragraph, else the first medium one. Free, no model,
// deterministic (docs/scripts.md, "Retention"); changes nothing.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request } from "../../actions/catalog/define.js";
import { RETENTION_REASONS, retentionOf } from "../analysis/retention.js";
import { loadView } from "../analysis/view.js";
import { echoedRequest } from "../summary.js";

const pointShape = z
  .object({
    paragraph_id: z.string(),
    position: z.number().int(),
    role: z.string(),
    start_ms: z.number().int(),
    duration_ms: z.number().int(),
    timecode: z.string().describe("start_ms as HH:MM:SS.mmm."),
    risk: z.number().describe("0 to 1: the sum of the reasons' weights, at most 1."),
    level: z.string().describe("low (under 0.3), medium (under 0.6) or high."),
    reasons: z.array(z.object({ code: z.string().describe(`${Object.keys(RETENTION_REASONS).join(", ")}.`), weight: z.number(), message: z.string() })),
  })
  .meta({ id: "ScriptRetentionPoint", description: "A paragraph and the reasons a viewer may stop there." });

export default defineAction({
  name: "scripts.retention",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({ script_id: id(), request: request().optional() }),
  weight: 1,
  purpose: "where a viewer is likely to stop, per paragraph, with timecode and reason; free",
  output: z.object({
    object: z.literal("script_retention"),
    script_id: z.string(),
    total_ms: z.number().int(),
    paragraphs: z.array(pointShape),
    likely_stop: pointShape.nullable().describe("The first high-risk paragraph, else the first medium one; null when every paragraph is low."),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "In this video we look at why cats purr.", role: "intro" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Thanks for watching, see you next time.", role: "outro" });
    return { script_id: script.script_id };
  },
  async run({ tx, graphql }, input) {
    const view = await loadView(tx, graphql, input.script_id);
    const { paragraphs, likely_stop } = retentionOf(view);
    return { object: "script_retention" as const, script_id: input.script_id, total_ms: view.total_ms, paragraphs, likely_stop, request: input.request ?? null };
  },
});
