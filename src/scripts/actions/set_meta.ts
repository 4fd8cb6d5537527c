// scripts.set_meta (catalog 4.8): the script's title, topic, tone, audience, language, format and
// target runtime; send only the fields to change (a field left out stays). An empty title, topic,
// tone or audience clears it. Logged as one `meta` entry with the old and new values
// (undo_change undoes it); a call that changes nothing writes nothing.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, label, language, prompt, request, text } from "../../actions/catalog/define.js";
import { targetDurationMs } from "../fields.js";
import { openForWrite } from "../document.js";
import { sameJson } from "../paragraphs.js";
import { echoedRequest, presentScript, scriptSummaryShape } from "../summary.js";

const META = ["title", "topic", "tone", "audience", "language", "format", "target_duration_ms"] as const;
/** Free text an empty string clears. */
const CLEARABLE = new Set<string>(["title", "topic", "tone", "audience"]);

export default defineAction({
  name: "scripts.set_meta",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    title: text(500).optional(),
    topic: prompt().optional(),
    tone: text(500).optional(),
    audience: text(500).optional(),
    language: language().optional(),
    format: label().optional(),
    target_duration_ms: targetDurationMs().optional(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "send only the fields to change",
  output: z.object({
    object: z.literal("script_meta"),
    script: scriptSummaryShape,
    changed: z.array(z.string()).describe("The fields this call changed."),
    edit_id: z.string().nullable().describe("The edit log entry (null when nothing changed)."),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    return { script_id: script.script_id, title: "A better title", target_duration_ms: 90_000 };
  },
  async run({ tx, graphql }, input) {
    const write = await openForWrite(tx, graphql, input.script_id, "scripts.set_meta");
    const current = write.script;
    const wanted = Object.fromEntries(
      META.filter((field) => input[field] !== undefined).map((field) => [field, CLEARABLE.has(field) && input[field] === "" ? null : input[field]]),
    ) as Record<string, string | number | null>;
    const changed = META.filter((field) => field in wanted && !sameJson(current[field], wanted[field]));
    let editId: string | null = null;
    let script;
    if (changed.length) {
      const values = Object.fromEntries(changed.map((field) => [field, wanted[field]]));
      await tx.script.update({ where: { script_id: input.script_id }, data: values });
      editId = await write.edit({ kind: "meta", before: Object.fromEntries(changed.map((field) => [field, current[field]])), after: values });
      script = await write.done();
    } else script = await write.unchanged();
    return { object: "script_meta" as const, script: presentScript(script), changed: [...changed], edit_id: editId, revision: script.revision, request: input.request ?? null };
  },
});
