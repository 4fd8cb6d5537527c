// tools.generate_from_prompt (catalog 4.5): one image from a text prompt, drawn by the image model,
// stored, and answered as a signed link served as the image itself (image/png, ...). A billed
// generation (src/generations/billed-generation.ts): generation.completed, or a failed row and
// generation.failed with the hold given back.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { modelRef, prompt } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { billedGeneration, storeMedia } from "../../generations/index.js";
import { validationFailed } from "../../validation/issues.js";
import { IMAGE_QUALITIES as QUALITIES, IMAGE_SIZES as SIZES } from "../inputs.js";

export default defineAction({
  name: "tools.generate_from_prompt",
  method: "POST",
  scopes: ["videos:execute", "generations:execute"],
  credits: true,
  input: z.strictObject({
    prompt: prompt().min(1),
    model: modelRef().optional(),
    size: z.enum(SIZES).optional(),
    quality: z.enum(QUALITIES).optional(),
  }),
  price: { credits: 4, per: "call" },
  weight: 5,
  purpose: "draw one image from a text prompt and store it on the CDN; an image tool, not a video one",
  mode: "model",
  uses: ["image"],
  output: z.object({
    object: z.literal("generated_image"),
    generation_id: z.string().describe("The generations record of this image."),
    url: z.string().describe("A signed link to the stored image, served with its own content type."),
    content_type: z.string(),
    size_bytes: z.number().int(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    prompt: z.string(),
    model: z.string().describe("`<provider>/<model id>` that drew it."),
    size: z.string().nullable(),
    quality: z.string().nullable(),
  }),
  async example() {
    return { prompt: "A red fox at dawn, watercolour", size: "1024x1024" };
  },
  async check({ graphql }, input) {
    // `model` picks among the image models usable here (the catalog); by default the configured one.
    if (input.model === undefined) return;
    const usable = graphql.services.providers.catalog().filter((model) => model.capability === "image").map((model) => model.ref);
    if (!usable.includes(input.model)) throw validationFailed([{ path: "model", message: `Must be one of: ${usable.join(", ")}.`, type: "any.only", allowed: usable }]);
  },
  async run(context, input) {
    const { providers, graphql, files } = context;
    const model = input.model ?? graphql.services.providers.model("image")!.ref;
    const workspaceId = graphql.auth.workspaceId;
    const spec = {
      action: "tools.generate_from_prompt",
      agentType: "image" as const,
      model,
      prompt: input.prompt,
      metadata: { size: input.size ?? null, quality: input.quality ?? null },
    };
    return billedGeneration(
      context,
      spec,
      async (generationId) => {
        const drawn = await (input.model ? providers.getModel("image", input.model) : providers.get("image")).generate({ prompt: input.prompt, size: input.size, quality: input.quality, n: 1 });
        const image = drawn.images[0];
        if (!image) throw new ApiError("upstream_error", "The image model answered no image.", { details: { provider: drawn.meta.provider, reason: "invalid_answer" } });
        const stored = await storeMedia(files, { folder: "generations", workspaceId, recordId: generationId, index: 0 }, image);
        const file = { key: stored.key, content_type: stored.content_type, size_bytes: stored.size_bytes, width: stored.width, height: stored.height };
        return { outputUrls: [stored.url], metadata: { provider: drawn.meta.provider, model: drawn.meta.model, files: [file] }, value: stored };
      },
      async (_tx, generation, stored) => ({
        object: "generated_image" as const,
        generation_id: generation.generation_id,
        url: stored.url,
        content_type: stored.content_type,
        size_bytes: stored.size_bytes,
        width: stored.width,
        height: stored.height,
        prompt: input.prompt,
        model,
        size: input.size ?? null,
        quality: input.quality ?? null,
      }),
    );
  },
});
