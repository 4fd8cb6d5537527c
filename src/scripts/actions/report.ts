// scripts.report (catalog 4.9): runtime against target, shape by role, house-style breaks (the
// workspace's banned and preferred rules), repeated openings and stale recordings. Free, no
// model, deterministic (docs/scripts.md, "Report"); changes nothing.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request } from "../../actions/catalog/define.js";
import { recordingsOf, repeatedOpenings, runtimeOf, runtimeShape, shapeOf, styleBreaksOf } from "../analysis/report.js";
import { loadView } from "../analysis/view.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.report",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({ script_id: id(), request: request().optional() }),
  weight: 1,
  purpose:
    "measures runtime against target, shape by role, house-style breaks, repeated openings, stale recordings; free, no model",
  output: z.object({
    object: z.literal("script_report"),
    script_id: z.string(),
    paragraphs: z.number().int(),
    words: z.number().int(),
    runtime: runtimeShape,
    shape: z.object({
      roles: z.array(
        z.object({
          role: z.string(),
          paragraphs: z.number().int(),
          words: z.number().int(),
          duration_ms: z.number().int(),
          share: z.number().describe("Share of the runtime, 0 to 1."),
        }),
      ),
      findings: z.array(z.object({ code: z.string().describe("empty, no_hook, long_hook, intro_heavy, no_cta or early_cta."), message: z.string(), paragraph_id: z.string().nullable() })),
    }),
    style: z.object({
      banned: z.number().int().describe("Occurrences of banned terms."),
      preferred: z.number().int().describe("Occurrences of terms the house says otherwise."),
      breaks: z.array(
        z.object({
          paragraph_id: z.string(),
          position: z.number().int(),
          rule_id: z.string(),
          kind: z.string().describe("banned or preferred."),
          term: z.string(),
          replacement: z.string().nullable(),
          match: z.string().describe("The words as found."),
          index: z.number().int().describe("Offset in the paragraph's text."),
        }),
      ),
    }),
    repeated_openings: z.array(
      z.object({ opening: z.string().describe("The first two words, lower case."), paragraph_ids: z.array(z.string()), positions: z.array(z.number().int()) }),
    ),
    recordings: z.object({
      recorded: z.number().int(),
      unrecorded: z.number().int(),
      stale: z.array(z.object({ paragraph_id: z.string(), position: z.number().int(), take_id: z.string() })).describe("Chosen takes recorded from other words than the paragraph has now."),
    }),
    issues: z.number().int().describe("Shape findings + style breaks + repeated-opening groups + stale recordings."),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example", target_duration_ms: 30_000 });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "So, cats purr.", role: "hook" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "So, why do they purr?" });
    return { script_id: script.script_id };
  },
  async run({ tx, graphql }, input) {
    const view = await loadView(tx, graphql, input.script_id);
    const shape = shapeOf(view);
    const style = styleBreaksOf(view);
    const repeated = repeatedOpenings(view.paragraphs);
    const recordings = recordingsOf(view);
    return {
      object: "script_report" as const,
      script_id: input.script_id,
      paragraphs: view.paragraphs.length,
      words: view.paragraphs.reduce((sum, paragraph) => sum + paragraph.row.word_count, 0),
      runtime: runtimeOf(view),
      shape,
      style,
      repeated_openings: repeated,
      recordings,
      issues: shape.findings.length + style.breaks.length + repeated.length + recordings.stale.length,
      request: input.request ?? null,
    };
  },
});
