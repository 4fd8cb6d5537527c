// timeline.generate_questions (catalog 4.2): quiz questions on a topic from the text model, each
// with 2 to 4 answers and the index of the right one, in the shape a `question` layer of the
// composition takes (docs/timeline.md). `preset` picks the kind: quiz (default: 4 answers),
// true_false (2), would_you_rather (2 options, no right answer). Writes nothing; 1 credit per
// question asked for. A test key gets a quote.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { count, label, language, prompt } from "../../actions/catalog/define.js";
import { validationFailed } from "../../validation/issues.js";
import { didYouMean } from "../../validation/did-you-mean.js";

export const QUESTION_PRESETS = {
  quiz: { answers: 4, graded: true, ask: "multiple-choice quiz questions with exactly 4 answers, one of them right" },
  true_false: { answers: 2, graded: true, ask: "true-or-false statements; the answers are \"True\" and \"False\"" },
  would_you_rather: { answers: 2, graded: false, ask: "\"would you rather\" dilemmas with exactly 2 options, neither right" },
} as const;
type Preset = keyof typeof QUESTION_PRESETS;
const PRESETS = Object.keys(QUESTION_PRESETS);

export const questionShape = z.object({
  question: z.string().min(1).max(500),
  answers: z.array(z.string().min(1).max(200)).min(2).max(4),
  correct: z.number().int().min(0).max(3).nullable().describe("Index of the right answer; null for would_you_rather."),
});

export default defineAction({
  name: "timeline.generate_questions",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({
    topic: prompt().min(1),
    count: count().default(5),
    lang: language().optional(),
    preset: label().optional(),
  }),
  price: { credits: 1, per: "item", unit_field: "count" },
  weight: 2,
  purpose: "write quiz questions from a topic or keyword",
  mode: "model",
  uses: ["text"],
  output: z.object({
    object: z.literal("question_set"),
    topic: z.string(),
    preset: z.string(),
    lang: z.string().nullable(),
    questions: z.array(questionShape),
  }),
  async example() {
    return { topic: "The solar system", count: 2 };
  },
  async check(_context, input) {
    if (input.preset !== undefined && !PRESETS.includes(input.preset)) {
      const suggestion = didYouMean(input.preset, PRESETS);
      throw validationFailed([{ path: "preset", message: `Must be one of: ${PRESETS.join(", ")}.`, type: "any.only", allowed: PRESETS, ...(suggestion && { did_you_mean: suggestion }) }]);
    }
  },
  async run({ providers }, input) {
    const preset = (input.preset ?? "quiz") as Preset;
    const kind = QUESTION_PRESETS[preset];
    const { object } = await providers.get("text").generateObject({
      system: "You write questions for short quiz videos: clear, factual, one line each, answers short enough to read on screen.",
      prompt: `Write exactly ${input.count} ${kind.ask} about: ${input.topic}.${input.lang ? ` Write in the language with code "${input.lang}".` : ""}`,
      schema: z.object({
        questions: z.array(z.object({ question: z.string().min(1).max(500), answers: z.array(z.string().min(1).max(200)).length(kind.answers), correct: z.number().int().min(0).max(kind.answers - 1) })).length(input.count),
      }),
      schemaName: "quiz_questions",
    });
    return {
      object: "question_set" as const,
      topic: input.topic,
      preset,
      lang: input.lang ?? null,
      questions: object.questions.map((question) => ({ ...question, correct: kind.graded ? question.correct : null })),
    };
  },
});
