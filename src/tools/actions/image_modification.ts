// tools.image_modification (catalog 4.5): an instruction-based edit of one image by the image model
// (ImageProvider.edit: OpenAI's /images/edits or a compatible server). The image comes inline
// (base64) or as a URL fetched through the URL guard, and must be a PNG, JPEG, GIF or WebP (its
// `media_type`, when sent, must say so). With `agent_id`, the image agent's settings give the
// default `size` and `quality`, and the generation is filed under the agent. The edited image is
// measured with sharp, stored and answered with a signed link; the call is a billed generation
// (4 credits, src/generations/billed-generation.ts).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, prompt, requireOneOf, url } from "../../actions/catalog/define.js";
import { agents } from "../../agents/index.js";
import { ApiError } from "../../errors/api-error.js";
import { loadOwned } from "../../resources/service.js";
import { validationFailed } from "../../validation/issues.js";
import { billedGeneration } from "../../generations/index.js";
import { fileEntry, imageFields, sentImage, storeImage } from "../images.js";
import { IMAGE_QUALITIES, IMAGE_SIZES, base64, mediaType } from "../inputs.js";

const PRICE = 4;
const FIDELITIES = ["low", "high"] as const;

/** A short text setting of an agent, or undefined. */
function setting(settings: unknown, name: string, allowed: readonly string[]): string | undefined {
  const value = settings && typeof settings === "object" ? (settings as Record<string, unknown>)[name] : undefined;
  return typeof value === "string" && allowed.includes(value) ? value : undefined;
}

export default defineAction({
  name: "tools.image_modification",
  method: "POST",
  scopes: ["generations:execute"],
  credits: true,
  input: requireOneOf(
    z.strictObject({
      image_base64: base64().optional(),
      image_url: url().optional(),
      media_type: mediaType().optional(),
      prompt: prompt().min(1),
      size: z.enum(IMAGE_SIZES).optional(),
      quality: z.enum(IMAGE_QUALITIES).optional(),
      input_fidelity: z.enum(FIDELITIES).optional(),
      agent_id: id().optional(),
    }),
    ["image_base64", "image_url"],
  ),
  price: { credits: PRICE, per: "call" },
  weight: 5,
  purpose: "instruction-based image edit",
  mode: "model",
  uses: ["image"],
  output: z.object({
    object: z.literal("image_modification"),
    generation_id: z.string().describe("The generations record of the edit."),
    url: z.string().describe("A signed link to the stored image, served with its own content type."),
    content_type: z.string(),
    size_bytes: z.number().int(),
    width: z.number().int(),
    height: z.number().int(),
    prompt: z.string(),
    size: z.string().nullable(),
    quality: z.string().nullable(),
    input_fidelity: z.string().nullable().describe("Recorded; the provider layer's edit request has no fidelity setting to pass it to."),
    agent_id: z.string().nullable(),
    model: z.string().describe("`<provider>/<model id>` that edited it."),
  }),
  async example(setup) {
    return { image_base64: (await setup.image()).base64, media_type: "image/png", prompt: "Make the background a starry night sky" };
  },
  async check({ graphql }, input) {
    if (input.agent_id) {
      const agent = await loadOwned(graphql.prisma, graphql, agents, input.agent_id, { select: { agent_type: true } }, "read");
      if (agent.agent_type !== "image") throw validationFailed([{ path: "agent_id", message: `This is a ${String(agent.agent_type)} agent; an image edit runs with an image agent.`, type: "any.invalid" }]);
    }
  },
  async run(context, input) {
    const { providers, graphql, files, db } = context;
    const image = await sentImage(graphql.services.outbound, input);
    const agent = input.agent_id ? await db.agent.findUnique({ where: { agent_id: input.agent_id }, select: { agent_settings: true } }) : null;
    const size = input.size ?? setting(agent?.agent_settings, "size", IMAGE_SIZES) ?? null;
    const quality = input.quality ?? setting(agent?.agent_settings, "quality", IMAGE_QUALITIES) ?? null;
    const model = graphql.services.providers.model("image")!.ref;
    const workspaceId = graphql.auth.workspaceId;
    const spec = {
      action: "tools.image_modification",
      agentType: "image" as const,
      model,
      prompt: input.prompt,
      agentId: input.agent_id ?? null,
      metadata: { source: input.image_url ?? "inline", size, quality, input_fidelity: input.input_fidelity ?? null },
    };
    return billedGeneration(
      context,
      spec,
      async (generationId) => {
        const edited = await providers.get("image").edit({ prompt: input.prompt, images: [image], size: size ?? undefined, quality: quality ?? undefined, n: 1 });
        const output = edited.images[0];
        if (!output) throw new ApiError("upstream_error", "The image model answered no image.", { details: { provider: edited.meta.provider, reason: "invalid_answer" } });
        const stored = await storeImage(files, { workspaceId, recordId: generationId, index: 0 }, output, { provider: edited.meta.provider });
        return { outputUrls: [stored.url], metadata: { provider: edited.meta.provider, files: [fileEntry(stored)] }, value: stored };
      },
      async (_tx, generation, stored) => ({
        object: "image_modification" as const,
        generation_id: generation.generation_id,
        ...imageFields(stored),
        prompt: input.prompt,
        size,
        quality,
        input_fidelity: input.input_fidelity ?? null,
        agent_id: input.agent_id ?? null,
        model,
      }),
    );
  },
});
