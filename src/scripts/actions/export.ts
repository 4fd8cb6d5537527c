// scripts.export (catalog 4.8): the script as a file's content, in the answer itself (not a link):
// txt, markdown, srt, vtt, teleprompter, csv (one row per paragraph), shotlist or json
// (docs/scripts.md, "Export"). srt and vtt are timed from the chosen takes where they exist and
// estimated from the words until then; `timing` says which. Free; changes nothing.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { EXPORT_FORMATS, id, request } from "../../actions/catalog/define.js";
import { loadView } from "../analysis/view.js";
import { EXPORTERS, EXPORT_TYPES, exportFilename } from "../export/formats.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
  name: "scripts.export",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    format: z.enum(EXPORT_FORMATS),
    request: request().optional(),
  }),
  weight: 1,
  purpose:
    "`format` one of `txt`, `markdown`, `srt`, `vtt`, `teleprompter`, `csv`, `shotlist`, `json`; returns the content, not a link; srt and vtt timed from real takes where they exist; csv is one row per paragraph",
  output: z.object({
    object: z.literal("script_export"),
    script_id: z.string(),
    format: z.string(),
    content_type: z.string().describe("The content's media type, to save it as a file."),
    filename: z.string().describe("A file name for it, from the title."),
    content: z.string().describe("The file's content."),
    size_bytes: z.number().int().describe("UTF-8 bytes of content."),
    paragraphs: z.number().int(),
    timing: z.string().describe("recordings (every paragraph timed from its chosen take), estimate (none), or mixed."),
    runtime_ms: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Why cats purr" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Cats purr when they are content. They also purr when they are hurt.", role: "hook" });
    return { script_id: script.script_id, format: "srt" };
  },
  async run({ tx, graphql }, input) {
    const view = await loadView(tx, graphql, input.script_id);
    const content = EXPORTERS[input.format](view);
    const recorded = view.paragraphs.filter((paragraph) => paragraph.timing.source === "recording").length;
    return {
      object: "script_export" as const,
      script_id: input.script_id,
      format: input.format,
      content_type: EXPORT_TYPES[input.format].contentType,
      filename: exportFilename(view, input.format),
      content,
      size_bytes: Buffer.byteLength(content, "utf8"),
      paragraphs: view.paragraphs.length,
      timing: recorded === 0 ? "estimate" : recorded === view.paragraphs.length ? "recordings" : "mixed",
      runtime_ms: view.total_ms,
      request: input.request ?? null,
    };
  },
});
