// tools.remove_background (catalog 4.5): the cut-out of an image, by the `cutout` capability (fal's
// background-removal models, src/providers). The image is fetched through the URL guard and must be
// a PNG, JPEG, GIF or WebP; the cut-out is checked with sharp (it must carry an alpha channel),
// stored as a PNG and answered with a signed link. The call is a billed generation (2 credits):
// a `generations` row and generation.completed, or, when the model fails, a failed row and
// generation.failed with the hold given back (src/generations/billed-generation.ts).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, label, url } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { folders } from "../../folders/resource.js";
import { generations } from "../../generations/resource.js";
import { imageFromUrl } from "../../providers/user-image.js";
import { loadOwned } from "../../resources/service.js";
import { validationFailed } from "../../validation/issues.js";
import { billedGeneration } from "../../generations/billed-generation.js";
import { fileEntry, imageFields, storeImage } from "../images.js";

const PRICE = 2;

export default defineAction({
  name: "tools.remove_background",
  method: "POST",
  scopes: ["generations:execute"],
  credits: true,
  input: z.strictObject({
    image_url: url(),
    source_generation_id: id().optional(),
    folder_id: id().optional(),
    action_type: label().optional(),
  }),
  price: { credits: PRICE, per: "call" },
  weight: 5,
  purpose: "cut-out version of an image",
  mode: "model",
  uses: ["cutout"],
  output: z.object({
    object: z.literal("background_removal"),
    generation_id: z.string().describe("The generations record of the cut-out."),
    url: z.string().describe("A signed link to the stored PNG."),
    content_type: z.literal("image/png"),
    size_bytes: z.number().int(),
    width: z.number().int(),
    height: z.number().int(),
    has_alpha: z.literal(true).describe("Checked with sharp: the PNG has an alpha channel."),
    opaque: z.boolean().describe("Every pixel is opaque: the model found no background to cut."),
    source_url: z.string(),
    source_generation_id: z.string().nullable(),
    folder_id: z.string().nullable(),
    action_type: z.string().nullable(),
    model: z.string().describe("`<provider>/<model id>` that cut it out."),
  }),
  async example(setup) {
    return { image_url: (await setup.image()).url };
  },
  async check({ graphql }, input) {
    // Records named are the caller's, checked before anything is held.
    if (input.source_generation_id) await loadOwned(graphql.prisma, graphql, generations, input.source_generation_id, { select: { generation_id: true } }, "read");
    if (input.folder_id) {
      const folder = await loadOwned(graphql.prisma, graphql, folders, input.folder_id, { select: { folder_scope: true } }, "read");
      if (folder.folder_scope !== "playground") throw validationFailed([{ path: "folder_id", message: "Generations are filed in playground folders; this is a video folder.", type: "any.invalid" }]);
    }
  },
  async run(context, input) {
    const { providers, graphql, files } = context;
    const image = await imageFromUrl(graphql.services.outbound, input.image_url);
    const model = graphql.services.providers.model("cutout")!.ref;
    const workspaceId = graphql.auth.workspaceId;
    const spec = {
      action: "tools.remove_background",
      agentType: "image" as const,
      model,
      prompt: "Remove the background",
      folderId: input.folder_id ?? null,
      metadata: { source_url: input.image_url, source_generation_id: input.source_generation_id ?? null, action_type: input.action_type ?? null },
    };
    return billedGeneration(
      context,
      spec,
      async (generationId) => {
        const cut = await providers.get("cutout").run({ image });
        const output = cut.outputs[0];
        if (!output) throw new ApiError("upstream_error", "The cutout model answered no image.", { details: { provider: cut.meta.provider, reason: "invalid_answer" } });
        const stored = await storeImage(files, { workspaceId, recordId: generationId, index: 0 }, output, { provider: cut.meta.provider, asPng: true });
        if (!stored.has_alpha) {
          await files.storage.delete(stored.key).catch(() => undefined);
          throw new ApiError("upstream_error", "The cutout model answered an image without transparency.", { details: { provider: cut.meta.provider, reason: "invalid_answer" } });
        }
        return { outputUrls: [stored.url], metadata: { provider: cut.meta.provider, request_id: cut.requestId ?? null, files: [fileEntry(stored)] }, value: stored };
      },
      async (_tx, generation, stored) => ({
        object: "background_removal" as const,
        generation_id: generation.generation_id,
        ...imageFields(stored),
        content_type: "image/png" as const,
        has_alpha: true as const,
        opaque: stored.opaque,
        source_url: input.image_url,
        source_generation_id: input.source_generation_id ?? null,
        folder_id: input.folder_id ?? null,
        action_type: input.action_type ?? null,
        model,
      }),
    );
  },
});
