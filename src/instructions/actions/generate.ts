// instructions.generate (catalog 4.7): an instruction set from a topic, written by the text model.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { language, prompt } from "../../actions/catalog/define.js";
import { instructionSetOutput, languageOf, writeInstructionSet } from "../instruction-set.js";

export default defineAction({
  name: "instructions.generate",
  method: "POST",
  scopes: ["generations:execute"],
  credits: true,
  input: z.strictObject({
    topic: prompt().min(1),
    lang: language().optional(),
  }),
  price: { credits: 1, per: "call" },
  weight: 2,
  purpose: "instruction set driving a generation",
  mode: "model",
  uses: ["text"],
  output: instructionSetOutput,
  async example() {
    return { topic: "A 30-second explainer on how tides work", lang: "en" };
  },
  async run({ providers }, input) {
    const language = languageOf(input.lang);
    const set = await writeInstructionSet(providers, { topic: input.topic, language });
    return { object: "instruction_set" as const, topic: input.topic, language, ...set };
  },
});
