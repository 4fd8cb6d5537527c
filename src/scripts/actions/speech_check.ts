// scripts.speech_check (catalog 4.8): per paragraph, what the voice will be handed — the words
// after the workspace's `spoken` style rules — and what in them a voice may read wrongly: URLs,
// abbreviations, acronyms, digits, symbols and runs of hissing sounds (docs/scripts.md, "Speech
// check"). Free; changes nothing.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request } from "../../actions/catalog/define.js";
import { SPEECH_KINDS, checkSpeech } from "../analysis/speech.js";
import { loadView } from "../analysis/view.js";
import { echoedRequest } from "../summary.js";

const flagShape = z
  .object({
    kind: z.string().describe(`${SPEECH_KINDS.join(", ")}.`),
    text: z.string().describe("What is flagged, as the voice gets it."),
    start: z.number().int().describe("Offset in spoken_text (UTF-16 code units)."),
    end: z.number().int().describe("Offset just past it."),
    spoken_as: z.string().nullable().describe("How it is usually said in English, where known (English scripts only)."),
    reason: z.string(),
  })
  .meta({ id: "ScriptSpeechFlag", description: "Something in a paragraph a voice may read wrongly." });

export default defineAction({
  name: "scripts.speech_check",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({ script_id: id(), request: request().optional() }),
  weight: 1,
  purpose:
    "per paragraph, what the voice will be handed (digits, symbols, acronyms, URLs, abbreviations, sibilant runs); free",
  output: z.object({
    object: z.literal("script_speech_check"),
    script_id: z.string(),
    language: z.string(),
    paragraphs: z.array(
      z.object({
        paragraph_id: z.string(),
        position: z.number().int(),
        text: z.string().describe("The paragraph as written."),
        spoken_text: z.string().describe("What the voice is handed: the text after the workspace's spoken rules."),
        rules_applied: z.array(z.object({ rule_id: z.string(), term: z.string(), replacement: z.string(), count: z.number().int() })),
        flags: z.array(flagShape),
      }),
    ),
    totals: z.object(Object.fromEntries(SPEECH_KINDS.map((kind) => [kind, z.number().int()])) as Record<(typeof SPEECH_KINDS)[number], z.ZodNumber>).describe("Flags by kind."),
    paragraphs_flagged: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example", language: "en" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Visit example.com: 50% off the API, e.g. today." });
    return { script_id: script.script_id };
  },
  async run({ tx, graphql }, input) {
    const view = await loadView(tx, graphql, input.script_id);
    const paragraphs = view.paragraphs.map((paragraph) => ({
      paragraph_id: paragraph.row.paragraph_id,
      position: paragraph.row.position,
      text: paragraph.row.text,
      ...checkSpeech(paragraph.row.text, view.rules, view.language),
    }));
    const totals = Object.fromEntries(SPEECH_KINDS.map((kind) => [kind, paragraphs.reduce((sum, paragraph) => sum + paragraph.flags.filter((flag) => flag.kind === kind).length, 0)])) as Record<(typeof SPEECH_KINDS)[number], number>;
    return {
      object: "script_speech_check" as const,
      script_id: input.script_id,
      language: view.language,
      paragraphs,
      totals,
      paragraphs_flagged: paragraphs.filter((paragraph) => paragraph.flags.length > 0).length,
      request: input.request ?? null,
    };
  },
});
