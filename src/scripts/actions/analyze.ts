// scripts.analyze (catalog 4.9): density, opening strength, drop-off points, reading level and
// pace. What can be counted is computed here, exactly (src/scripts/writing/measure.ts: LIX reading
// level, words per minute over the running order, numbers per 100 words); the text model is asked
// only for judgement (how dense, how strong the opening, where a viewer drops off and why), and
// is handed the figures so it judges from them. Changes nothing; one credit per call.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, idempotencyKey, request } from "../../actions/catalog/define.js";
import { loadView } from "../analysis/view.js";
import { readForPass } from "../writing/pass.js";
import { countedDensity, countedDensityShape, paceOf, paceShape, readingLevel, readingLevelShape } from "../writing/measure.js";
import { askModel, enoughParagraphs, idsOf, passPrompt, readingFields, requireParagraphs } from "../writing/reading.js";

const judgement = (what: string) =>
  z.object({
    score: z.number().int().min(0).max(100).describe(`${what}, 0 to 100.`),
    comment: z.string().min(1).max(2000),
  });

export default defineAction({
  name: "scripts.analyze",
  method: "GET",
  scopes: ["scripts:execute"],
  credits: true,
  input: z.strictObject({
    script_id: id(),
    request: request().optional(),
    idempotency_key: idempotencyKey().optional(),
  }),
  price: { credits: 1, per: "call" },
  weight: 2,
  purpose: "density, opening strength, drop-off points, reading level, pace; changes nothing",
  mode: "model",
  uses: ["text"],
  output: z.object({
    object: z.literal("script_analysis"),
    ...readingFields,
    reading_level: readingLevelShape.nullable().describe("Computed; null for languages written without spaces."),
    pace: paceShape.extend({ comment: z.string().describe("The model's judgement of the pace.") }),
    density: countedDensityShape.extend(judgement("How much each minute carries (50 is right for the audience)").shape),
    opening: z.object({
      paragraph_id: z.string(),
      role: z.string(),
      duration_ms: z.number().int(),
      words: z.number().int(),
      ...judgement("How strongly the opening holds a viewer").shape,
    }).meta({ id: "ScriptOpening" }),
    drop_off_points: z.array(
      z.object({
        paragraph_id: z.string(),
        timecode: z.string(),
        start_ms: z.number().int(),
        reason: z.string(),
      }).meta({ id: "ScriptDropOff" }),
    ),
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Analysis example" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Why do cats purr? Not only when they are happy.", role: "hook" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "They purr at 25 to 150 hertz, which may help bones heal." });
    return { script_id: script.script_id };
  },
  async check(context, input) {
    await requireParagraphs(context, input.script_id, 1, "Analysing a script");
  },
  async run(context, input) {
    const document = await readForPass(context.db, context.graphql, input.script_id);
    enoughParagraphs(document.paragraphs.length, 1, "Analysing a script");
    const view = await loadView(context.db, context.graphql, input.script_id);
    const reading = readingLevel(view.paragraphs.map((paragraph) => paragraph.row.text), view.rate.unit);
    const pace = paceOf(view);
    const density = countedDensity(view);
    const first = pace.paragraphs[0]!;
    const figures = [
      "Measured (exact; judge from these, do not recompute them):",
      `- Runtime ${Math.round(pace.duration_ms / 1000)} s (${pace.timing}), ${pace.words} words, ${pace.words_per_minute ?? "n/a"} words per minute.`,
      reading ? `- Reading level LIX ${reading.score} (${reading.band.replace("_", " ")}), ${reading.words_per_sentence} words per sentence.` : "- Reading level: not measured for this language.",
      `- ${density.words_per_paragraph} words per paragraph, ${density.numbers_per_100_words} numbers per 100 words.`,
      `- The opening paragraph runs ${Math.round(first.duration_ms / 1000)} s.`,
      `- Paragraph start times: ${pace.paragraphs.map((paragraph) => `[${paragraph.paragraph_id}] ${paragraph.timecode}`).join(", ")}.`,
    ].join("\n");
    const { object, model } = await askModel(context, document, "document", {
      ...passPrompt(
        document,
        "You are a script analyst for spoken videos. The figures are measured for you; you give judgement: how dense the script is for its audience, how strongly it opens, where viewers are likely to drop off and why, and whether the pace suits it.",
        `Judge the script's density and its opening (each a score from 0 to 100 with a comment), comment on its pace, and list the paragraphs where a viewer is likely to drop off, by id, each with the reason.\n\n${figures}`,
      ),
      schema: z.object({
        density: judgement("Density"),
        opening: judgement("Opening strength"),
        pace_comment: z.string().min(1).max(2000),
        drop_off_points: z.array(z.object({ paragraph_id: idsOf(document.paragraphs.map((paragraph) => paragraph.paragraph_id)), reason: z.string().min(1).max(1000) })).max(200),
      }),
      schemaName: "script_analysis",
    });
    const timed = new Map(view.paragraphs.map((paragraph) => [paragraph.row.paragraph_id, paragraph]));
    return {
      object: "script_analysis" as const,
      script_id: input.script_id,
      revision: document.revision,
      model,
      request: input.request ?? null,
      reading_level: reading,
      pace: { ...pace, comment: object.pace_comment },
      density: { ...density, ...object.density },
      opening: { paragraph_id: first.paragraph_id, role: view.paragraphs[0]!.row.role, duration_ms: first.duration_ms, words: first.words, ...object.opening },
      // In running order, once each (the first reason given), whatever order the model named them in.
      drop_off_points: object.drop_off_points
        .filter((point, index, all) => all.findIndex((other) => other.paragraph_id === point.paragraph_id) === index)
        .filter((point) => timed.has(point.paragraph_id))
        .sort((a, b) => timed.get(a.paragraph_id)!.timing.start_ms - timed.get(b.paragraph_id)!.timing.start_ms)
        .map((point) => ({ paragraph_id: point.paragraph_id, timecode: timed.get(point.paragraph_id)!.timecode, start_ms: timed.get(point.paragraph_id)!.timing.start_ms, reason: point.reason })),
    };
  },
});
