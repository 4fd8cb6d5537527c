// An instruction set: the brief that drives a generation (a video, a series of images), as steps a
// writer or a pipeline follows. Written by a text model from a topic, optionally grounded in fresh
// news found by web search; the sources are the search's own hits, never the model's.
import { z } from "zod";
import type { CallProviders } from "../actions/framework/action.js";
import type { SearchHit } from "../providers/types.js";

export const instructionSetShape = z.object({
  title: z.string().min(1).max(200),
  summary: z.string().min(1).max(1500).describe("What the generation should achieve, in two or three sentences."),
  instructions: z
    .array(z.object({ step: z.string().min(1).max(300).describe("The instruction, imperative."), detail: z.string().max(2000).describe("How to carry it out.") }))
    .min(3)
    .max(12),
});

export const sourceShape = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
  published_at: z.string().nullable(),
});

export const instructionSetOutput = z.object({
  object: z.literal("instruction_set"),
  topic: z.string(),
  language: z.string().describe("The language the instructions are written in (`lang`, or English)."),
  ...instructionSetShape.shape,
});

interface Brief {
  topic: string;
  language: string;
  news?: readonly SearchHit[];
}

export async function writeInstructionSet(providers: CallProviders, brief: Brief) {
  const news = brief.news
    ? brief.news.length > 0
      ? `\n\nFresh news to build on (cite nothing else as news):\n${brief.news.map((hit, index) => `[${index + 1}] ${hit.title} (${hit.published_at ?? "undated"}): ${hit.snippet}`).join("\n")}`
      : "\n\nNo fresh news was found for this topic: do not invent any."
    : "";
  const answer = await providers.get("text").generateObject({
    system:
      "You write instruction sets that drive the generation of a short video or a series of images: a title, a summary of the goal, then 3 to 12 concrete, ordered steps. Be specific; no filler.",
    prompt: `Topic: ${brief.topic}\nWrite in: ${brief.language}${news}`,
    schema: instructionSetShape,
    schemaName: "instruction_set",
  });
  return answer.object;
}

/** `lang` as given, or English. */
export function languageOf(lang: string | undefined): string {
  return lang?.trim() || "en";
}
