// timeline.translate_subtitles (catalog 4.2): translates a subtitle track line by line with the
// text model, keeping every line's timing. A line is a subtitle group ({start, end, words}) or any
// object with `text` (other keys are kept as they are). A group's translated words cannot keep
// the source words' own times (languages do not map word to word): they are spread evenly over
// the group's time. Writes nothing; 2 credits a call. A test key gets a quote.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { json, language } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { validationFailed, type ValidationIssue } from "../../validation/issues.js";
import { wordsSpreadOver } from "../../video-model/index.js";

type Line = Record<string, unknown>;

/** The text of a line: its `text`, or its words joined. */
function textOf(line: unknown): string | undefined {
  if (line === null || typeof line !== "object" || Array.isArray(line)) return undefined;
  const { text, words } = line as Line;
  if (typeof text === "string" && text.trim()) return text;
  if (Array.isArray(words) && words.length > 0 && words.every((word) => typeof (word as Line | null)?.word === "string")) {
    return words.map((word) => (word as Line).word as string).join(" ");
  }
  return undefined;
}

/** The line with its translation: `text` replaced, or its words re-timed evenly over the group. */
function translated(line: Line, text: string): Line {
  const out: Line = { ...line };
  if (typeof line.text === "string") out.text = text;
  if (Array.isArray(line.words)) {
    const start = Number(line.start ?? (line.words[0] as Line).start ?? 0);
    const end = Number(line.end ?? (line.words.at(-1) as Line).end ?? start);
    out.words = wordsSpreadOver(text, start, end);
  }
  return out;
}

export default defineAction({
  name: "timeline.translate_subtitles",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({
    subtitles: z.array(json()).min(1).max(10_000),
    target_lang: language(),
  }),
  price: { credits: 2, per: "call" },
  weight: 2,
  purpose: "translate a subtitle track",
  mode: "model",
  uses: ["text"],
  output: z.object({
    object: z.literal("subtitle_translation"),
    target_lang: z.string(),
    subtitles: z.array(z.record(z.string(), z.json())).describe("The lines in order, translated, with their timing."),
  }),
  async example() {
    return { subtitles: [{ start: 0, end: 1, words: [{ word: "Hello", start: 0, end: 0.5 }, { word: "world", start: 0.5, end: 1 }] }, { start: 1, end: 2, text: "See you soon" }], target_lang: "fr" };
  },
  async check(_context, input) {
    const issues: ValidationIssue[] = [];
    input.subtitles.forEach((line, index) => {
      if (textOf(line) === undefined) issues.push({ path: `subtitles.${index}`, message: "A line is an object with `text`, or a subtitle group with `words` ({word, start, end}).", type: "object.base" });
    });
    if (issues.length > 0) throw validationFailed(issues.slice(0, 20));
  },
  async run({ providers }, input) {
    const lines = input.subtitles.map((line) => textOf(line)!);
    const { object } = await providers.get("text").generateObject({
      system: "You translate video subtitles. Keep each line short, natural and in the same order; translate meaning, not word for word. Never merge or split lines.",
      prompt: `Translate each of these ${lines.length} subtitle lines into the language with code "${input.target_lang}". Answer with exactly ${lines.length} lines, in order.\n\n${JSON.stringify(lines)}`,
      schema: z.object({ lines: z.array(z.string().min(1).max(2000)).length(lines.length) }),
      schemaName: "subtitle_translation",
    });
    if (object.lines.length !== lines.length) throw new ApiError("upstream_error", `The text model answered ${object.lines.length} lines for ${lines.length}.`);
    return {
      object: "subtitle_translation" as const,
      target_lang: input.target_lang,
      subtitles: input.subtitles.map((line, index) => translated(line as Line, object.lines[index]!.trim())) as Record<string, z.infer<ReturnType<typeof z.json>>>[],
    };
  },
});
