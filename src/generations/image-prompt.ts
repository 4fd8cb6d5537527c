// An image prompt as the playground and tools answer it: the prompt itself, plus what it is made
// of, so a client can show it or vary one part. Asked of a text model (from a theme) or a vision
// model (from an image) as structured output.
import { z } from "zod";
import type { CallProviders } from "../actions/framework/action.js";
import type { Media } from "../providers/types.js";

export const imagePromptShape = z.object({
  prompt: z.string().min(1).max(4000).describe("The prompt, ready to paste into an image model."),
  subject: z.string().max(500).describe("What the image shows."),
  style: z.string().max(500).describe("Its look: medium, lighting, palette."),
  tags: z.array(z.string().max(60)).max(12).describe("Short keywords."),
});

export type ImagePrompt = z.output<typeof imagePromptShape>;

/** The output of the actions that answer an image prompt. */
export const imagePromptOutput = z
  .object({ object: z.literal("image_prompt"), ...imagePromptShape.shape })
  .meta({ id: "ImagePrompt", description: "A reusable image prompt and what it is made of." });

const WRITING_RULES =
  "Write one image-generation prompt of 30 to 80 words in English: the subject first, then setting, composition, lighting, style and mood. No camera brand names, no quotes, no text in the image unless asked.";

/** A prompt that would reproduce an image, from a vision model. */
export async function promptFromImage(providers: CallProviders, image: Media): Promise<ImagePrompt> {
  const answer = await providers.get("vision").describeObject({
    system: `You describe images so that an image model can recreate them. ${WRITING_RULES}`,
    prompt: "Describe this image as a prompt that would reproduce it.",
    images: [image],
    schema: imagePromptShape,
    schemaName: "image_prompt",
  });
  return answer.object;
}

/** A fresh prompt from an optional theme and style, from a text model. */
export async function promptFromTheme(providers: CallProviders, request: { theme?: string; style?: string; seed: string }): Promise<ImagePrompt> {
  const answer = await providers.get("text").generateObject({
    system: `You invent striking, concrete image ideas. ${WRITING_RULES}`,
    prompt: [
      request.theme ? `Theme: ${request.theme}` : "Theme: free; surprise me.",
      request.style ? `Style: ${request.style}` : "Style: your choice.",
      `Start from this unexpected element: ${request.seed}.`,
    ].join("\n"),
    temperature: 1,
    schema: imagePromptShape,
    schemaName: "image_prompt",
  });
  return answer.object;
}
