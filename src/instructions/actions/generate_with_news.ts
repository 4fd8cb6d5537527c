// instructions.generate_with_news (catalog 4.7): the same instruction set, seeded with fresh news:
// one web search (the last week), then the text model writes from what it found. The answer's
// sources are the search hits themselves.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { language, prompt } from "../../actions/catalog/define.js";
import { instructionSetOutput, languageOf, sourceShape, writeInstructionSet } from "../instruction-set.js";

/** News hits handed to the model. */
const NEWS_RESULTS = 5;

export default defineAction({
  name: "instructions.generate_with_news",
  method: "POST",
  scopes: ["generations:execute"],
  credits: true,
  input: z.strictObject({
    topic: prompt().min(1),
    lang: language().optional(),
  }),
  price: { credits: 2, per: "call", note: "one news search plus one model call" },
  weight: 2,
  purpose: "same, seeded with fresh news",
  mode: "model",
  uses: ["search", "text"],
  output: instructionSetOutput.extend({
    sources: z.array(sourceShape).describe("The news the instructions were seeded with, as the search found it (empty when none was found)."),
  }),
  async example() {
    return { topic: "Electric bikes in cities", lang: "en" };
  },
  async run({ providers }, input) {
    const language = languageOf(input.lang);
    const found = await providers.get("search").search({ query: `${input.topic} news`, freshness: "week", limit: NEWS_RESULTS, language });
    const news = found.results.slice(0, NEWS_RESULTS);
    const set = await writeInstructionSet(providers, { topic: input.topic, language, news });
    return {
      object: "instruction_set" as const,
      topic: input.topic,
      language,
      ...set,
      sources: news.map((hit) => ({ title: hit.title, url: hit.url, snippet: hit.snippet, published_at: hit.published_at ?? null })),
    };
  },
});
