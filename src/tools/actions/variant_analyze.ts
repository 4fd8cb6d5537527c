// tools.variant_analyze (catalog 4.5): "analyse a media variant and report its content". The
// variant is an image at a URL (fetched through the URL guard; PNG, JPEG, GIF or WebP), read by the
// vision model as structured output: what it shows, its style and palette, any text in it, visible
// defects, and — with the `original_prompt` it was made from — how well it follows that prompt.
// A billed generation (1 credit, src/generations/billed-generation.ts); the report is also kept in its metadata.
import sharp from "sharp";
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { prompt, url } from "../../actions/catalog/define.js";
import { imageFromUrl } from "../../providers/user-image.js";
import { billedGeneration } from "../../generations/billed-generation.js";

const PRICE = 1;

const promptMatch = z.object({
  score: z.number().min(0).max(1).describe("0: unrelated to the prompt; 1: every element of it is there."),
  matched: z.array(z.string().max(200)).max(20).describe("Elements of the prompt the image shows."),
  missing: z.array(z.string().max(200)).max(20).describe("Elements of the prompt the image lacks or gets wrong."),
});

const analysisShape = z.object({
  summary: z.string().min(1).max(1000).describe("What the image shows, in one or two sentences."),
  subjects: z.array(z.string().max(200)).max(20).describe("The main things or people in it."),
  style: z.string().max(500).describe("Medium, lighting and mood."),
  colors: z.array(z.string().max(60)).max(12).describe("Dominant colours, most prominent first."),
  text_in_image: z.string().max(1000).describe("Text legible in the image, or an empty string."),
  issues: z.array(z.string().max(300)).max(20).describe("Visible defects: artefacts, distorted hands or faces, cut-off subjects."),
});

const withPrompt = analysisShape.extend({ prompt_match: promptMatch });

export default defineAction({
  name: "tools.variant_analyze",
  method: "POST",
  scopes: ["generations:execute"],
  credits: true,
  input: z.strictObject({
    image_url: url(),
    original_prompt: prompt().optional(),
  }),
  price: { credits: PRICE, per: "call" },
  weight: 2,
  purpose: "analyse a media variant and report its content",
  mode: "model",
  uses: ["vision"],
  output: z.object({
    object: z.literal("variant_analysis"),
    generation_id: z.string().describe("The generations record of this analysis."),
    image_url: z.string(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    media_type: z.string(),
    ...analysisShape.shape,
    prompt_match: promptMatch.nullable().describe("Present when original_prompt was sent."),
    model: z.string().describe("`<provider>/<model id>` that looked at it."),
  }),
  async example(setup) {
    return { image_url: (await setup.image()).url, original_prompt: "A red square" };
  },
  async run(context, input) {
    const { providers, graphql } = context;
    const image = await imageFromUrl(graphql.services.outbound, input.image_url);
    const { width = null, height = null } = await sharp(image.data).metadata().catch(() => ({ width: null, height: null }));
    const model = graphql.services.providers.model("vision")!.ref;
    const instruction = input.original_prompt
      ? `This image is a variant generated from the prompt below. Report its content, and how well it follows the prompt.\n\nPrompt: ${input.original_prompt}`
      : "Report the content of this image.";
    return billedGeneration(
      context,
      { action: "tools.variant_analyze", agentType: "text", model, prompt: input.original_prompt ?? null, metadata: { image_url: input.image_url } },
      async () => {
        const vision = providers.get("vision");
        const request = { system: "You review generated images for a video studio: precise, factual, brief.", prompt: instruction, images: [image] };
        const report = input.original_prompt
          ? (await vision.describeObject({ ...request, schema: withPrompt, schemaName: "variant_analysis" })).object
          : { ...(await vision.describeObject({ ...request, schema: analysisShape, schemaName: "variant_analysis" })).object, prompt_match: null };
        return { outputUrls: [], metadata: { report }, value: report };
      },
      async (_tx, generation, report) => ({
        object: "variant_analysis" as const,
        generation_id: generation.generation_id,
        image_url: input.image_url,
        width,
        height,
        media_type: image.mediaType,
        ...report,
        model,
      }),
    );
  },
});
