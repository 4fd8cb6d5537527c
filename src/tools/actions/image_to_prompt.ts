// tools.image_to_prompt (catalog 4.5): a reusable prompt from an image, sent inline (base64) or as
// a URL fetched through the URL guard. The bytes must be a PNG, JPEG, GIF or WebP; a `media_type`
// that says otherwise is refused rather than trusted.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { requireOneOf, url } from "../../actions/catalog/define.js";
import { base64, mediaType } from "../inputs.js";
import { imagePromptOutput, promptFromImage } from "../../generations/index.js";
import { sentImage } from "../images.js";

export default defineAction({
  name: "tools.image_to_prompt",
  method: "POST",
  scopes: ["generations:execute"],
  credits: true,
  input: requireOneOf(
    z.strictObject({
      image_base64: base64().optional(),
      media_type: mediaType().optional(),
      image_url: url().optional(),
    }),
    ["image_base64", "image_url"],
  ),
  price: { credits: 1, per: "call" },
  weight: 2,
  purpose: "turn an image into a reusable prompt",
  mode: "model",
  uses: ["vision"],
  output: imagePromptOutput,
  async example(setup) {
    const image = await setup.image();
    return { image_base64: image.base64, media_type: "image/png" };
  },
  async run({ providers, graphql }, input) {
    const image = await sentImage(graphql.services.outbound, input);
    return { object: "image_prompt" as const, ...(await promptFromImage(providers, image)) };
  },
});
