// What scripts.analyze computes itself rather than asks a model (docs/scripts.md, "Passes that
// read"): reading level, pace and the countable part of density, exactly, from the words and the
// running order (recordings where they exist, estimates otherwise: src/scripts/timing.ts).
import { z } from "zod";
import { numbersIn, sentencesOf, spokenWords } from "../analysis/rules.js";
import type { ScriptView } from "../analysis/view.js";
import { wordsIn } from "../document.js";

/** A word of more than this many letters is long, for LIX. */
export const LONG_WORD_LETTERS = 6;
/** LIX bands, upper bounds (exclusive): below 30 very easy … from 60 very hard. */
export const LIX_BANDS = [
  [30, "very_easy"],
  [40, "easy"],
  [50, "medium"],
  [60, "hard"],
] as const;

const round1 = (value: number) => Math.round(value * 10) / 10;

export const readingLevelShape = z
  .object({
    index: z.literal("lix").describe("Läsbarhetsindex: words per sentence plus the percentage of words over 6 letters."),
    score: z.number(),
    band: z.enum(["very_easy", "easy", "medium", "hard", "very_hard"]),
    words_per_sentence: z.number(),
    long_word_share: z.number().describe("Share of words over 6 letters, 0–1."),
  })
  .meta({ id: "ScriptReadingLevel" });

export const paceShape = z
  .object({
    timing: z.enum(["estimate", "recordings", "mixed"]),
    duration_ms: z.number().int(),
    words: z.number().int(),
    words_per_minute: z.number().nullable().describe("Words over the runtime; null when nothing runs."),
    paragraphs: z.array(
      z.object({
        paragraph_id: z.string(),
        timecode: z.string(),
        duration_ms: z.number().int(),
        source: z.enum(["recording", "estimate"]),
        words: z.number().int(),
        words_per_minute: z.number().nullable(),
      }).meta({ id: "ScriptParagraphPace" }),
    ),
  })
  .meta({ id: "ScriptPace" });

export const countedDensityShape = z
  .object({
    words_per_paragraph: z.number(),
    numbers: z.number().int().describe("Numbers written in digits (1,200 and 3.5 count once)."),
    numbers_per_100_words: z.number(),
  })
  .meta({ id: "ScriptCountedDensity" });

const perMinute = (words: number, ms: number) => (ms > 0 ? round1((words * 60_000) / ms) : null);

/** LIX of a text, or null for languages written without spaces (words cannot be counted) or no words. */
export function readingLevel(texts: readonly string[], unit: "words" | "characters"): z.output<typeof readingLevelShape> | null {
  if (unit === "characters") return null;
  const words = texts.flatMap((text) => spokenWords(text));
  const sentences = texts.flatMap((text) => sentencesOf(text)).filter((sentence) => spokenWords(sentence).length > 0).length;
  if (words.length === 0 || sentences === 0) return null;
  const long = words.filter((word) => [...word.replace(/'/g, "")].length > LONG_WORD_LETTERS).length;
  const wordsPerSentence = words.length / sentences;
  const score = round1(wordsPerSentence + (100 * long) / words.length);
  const band = LIX_BANDS.find(([bound]) => score < bound)?.[1] ?? "very_hard";
  return { index: "lix", score, band, words_per_sentence: round1(wordsPerSentence), long_word_share: Math.round((long / words.length) * 1000) / 1000 };
}

/** Words per minute over the running order, whole and per paragraph. */
export function paceOf(view: ScriptView): z.output<typeof paceShape> {
  const paragraphs = view.paragraphs.map((paragraph) => {
    const words = wordsIn(paragraph.row.text);
    return {
      paragraph_id: paragraph.row.paragraph_id,
      timecode: paragraph.timecode,
      duration_ms: paragraph.timing.duration_ms,
      source: paragraph.timing.source,
      words,
      words_per_minute: perMinute(words, paragraph.timing.duration_ms),
    };
  });
  const words = paragraphs.reduce((sum, paragraph) => sum + paragraph.words, 0);
  const recorded = paragraphs.filter((paragraph) => paragraph.source === "recording").length;
  return {
    timing: recorded === 0 ? "estimate" : recorded === paragraphs.length ? "recordings" : "mixed",
    duration_ms: view.total_ms,
    words,
    words_per_minute: perMinute(words, view.total_ms),
    paragraphs,
  };
}

export function countedDensity(view: ScriptView): z.output<typeof countedDensityShape> {
  const texts = view.paragraphs.map((paragraph) => paragraph.row.text);
  const words = texts.reduce((sum, text) => sum + wordsIn(text), 0);
  const numbers = texts.reduce((sum, text) => sum + numbersIn(text), 0);
  return {
    words_per_paragraph: texts.length ? round1(words / texts.length) : 0,
    numbers,
    numbers_per_100_words: words ? round1((numbers * 100) / words) : 0,
  };
}
