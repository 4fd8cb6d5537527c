// playground.image_to_prompt (catalog 4.7): the prompt that would produce an image at a URL. The
// image is fetched through the URL guard and must be a PNG, JPEG, GIF or WebP.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { url } from "../../actions/catalog/define.js";
import { imagePromptOutput, promptFromImage } from "../../generations/image-prompt.js";
import { imageFromUrl } from "../../providers/user-image.js";

export default defineAction({
  name: "playground.image_to_prompt",
  method: "POST",
  scopes: ["generations:execute"],
  credits: true,
  input: z.strictObject({ image_url: url() }),
  price: { credits: 1, per: "call" },
  weight: 2,
  purpose: "prompt that would produce an image",
  mode: "model",
  uses: ["vision"],
  output: imagePromptOutput,
  async example(setup) {
    return { image_url: (await setup.image()).url };
  },
  async run({ providers, graphql }, input) {
    const image = await imageFromUrl(graphql.services.outbound, input.image_url);
    return { object: "image_prompt" as const, ...(await promptFromImage(providers, image)) };
  },
});
