// tools.image_to_prompt (catalog 4.5): a reusable prompt from an image, sent inline (base64) or as
// a URL fetched through the URL guard. The bytes must be a PNG, JPEG, GIF or WebP; a `media_type`
// that says otherwise is refused rather than trusted.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { requireOneOf, url } from "../../actions/catalog/define.js";
import { base64, mediaType } from "../inputs.js";
import { imagePromptOutput, promptFromImage } from "../../generations/image-prompt.js";
import { imageFromBase64, imageFromUrl } from "../../media/user-image.js";
import { validationFailed } from "../../validation/issues.js";

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
    if (input.image_base64 !== undefined && input.image_url !== undefined) {
      throw validationFailed([{ path: "image_url", message: "Send image_base64 or image_url, not both.", type: "object.xor" }]);
    }
    const image = input.image_base64 !== undefined ? imageFromBase64(input.image_base64) : await imageFromUrl(graphql.services.outbound, input.image_url!);
    if (input.media_type && input.media_type.toLowerCase() !== image.mediaType) {
      throw validationFailed([{ path: "media_type", message: `The image is ${image.mediaType}, not ${input.media_type}.`, type: "any.only" }]);
    }
    return { object: "image_prompt" as const, ...(await promptFromImage(providers, image)) };
  },
});
