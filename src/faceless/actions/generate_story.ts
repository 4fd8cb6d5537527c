// faceless.generate_story (catalog 4.4): the narration of a faceless video from a prompt, written
// by the text model (structured output): a title, a logline and the script, one paragraph per
// scene (faceless.parse_script splits it). Writes nothing; a test key gets a quote.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { integer, language, prompt } from "../../actions/catalog/define.js";
import { DEFAULT_STORY_SECONDS, writeStory } from "../story.js";

export default defineAction({
  name: "faceless.generate_story",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({
    prompt: prompt().min(1),
    language: language().optional(),
    target_duration: integer(5, 3600).optional(),
  }),
  price: { credits: 2, per: "call" },
  weight: 2,
  purpose: "write the script of a faceless video",
  mode: "model",
  uses: ["text"],
  output: z.object({
    object: z.literal("faceless_story"),
    title: z.string(),
    logline: z.string(),
    language: z.string(),
    target_duration: z.number().int(),
    script: z.string().describe("The narration, paragraphs separated by a blank line: faceless.parse_script's input."),
    word_count: z.number().int(),
  }),
  async example() {
    return { prompt: "The lighthouse keeper who counted ships", target_duration: 30 };
  },
  async run({ providers }, input) {
    const language = input.language?.trim() || "en";
    const seconds = input.target_duration ?? DEFAULT_STORY_SECONDS;
    const story = await writeStory(providers, { prompt: input.prompt, language, seconds });
    return {
      object: "faceless_story" as const,
      title: story.title,
      logline: story.logline,
      language,
      target_duration: seconds,
      script: story.script,
      word_count: story.script.split(/\s+/u).filter(Boolean).length,
    };
  },
});
