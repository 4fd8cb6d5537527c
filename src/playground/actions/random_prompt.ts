// playground.random_prompt (catalog 4.7): an image prompt from an optional theme and style. The
// service draws an unexpected element at random, so two calls with the same theme differ.
import { randomInt } from "node:crypto";
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { text } from "../../actions/catalog/define.js";
import { imagePromptOutput, promptFromTheme } from "../../generations/index.js";

const SEEDS = [
  "a forgotten lighthouse", "paper lanterns", "a fox in winter", "neon rain", "an abandoned greenhouse", "a brass telescope",
  "origami birds", "a desert at dawn", "a floating market", "moss-covered statues", "a night train", "a coral reef",
  "a clockmaker's workshop", "northern lights", "a rooftop garden", "a lone astronaut", "cherry blossoms in fog", "a vintage diner",
];

export default defineAction({
  name: "playground.random_prompt",
  method: "POST",
  scopes: ["generations:execute"],
  credits: true,
  input: z.strictObject({
    theme: text(1000).optional(),
    style: text(1000).optional(),
  }),
  price: { credits: 1, per: "call" },
  weight: 2,
  purpose: "image prompt from a theme",
  mode: "model",
  uses: ["text"],
  output: imagePromptOutput,
  async run({ providers }, input) {
    const seed = SEEDS[randomInt(SEEDS.length)]!;
    const prompt = await promptFromTheme(providers, { theme: input.theme, style: input.style, seed });
    return { object: "image_prompt" as const, ...prompt };
  },
});
