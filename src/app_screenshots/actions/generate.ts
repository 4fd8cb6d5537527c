// app_screenshots.generate (catalog 4.7): one store screenshot of a project's screen at the size
// asked (a store size's name or WIDTHxHEIGHT; iphone_6_7, 1290x2796, by default), drawn by the
// image model from the project's global prompt, its image agent's template and the screen's
// prompt, with the project's and the screen's reference images (read through the URL guard) when
// there are any. The image is brought to the exact pixels with sharp, stored, and answered as a
// signed link; 4 credits, a completed `generations` row and generation.completed (a billed
// generation, src/generations/billed-generation.ts). Model mode: the credits are held first and
// given back if drawing fails, which leaves a failed row and generation.failed; a test key gets a
// quote once the project, the screen, the size and the prompt's variables were checked.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, label } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { storeMedia } from "../../generations/stored-media.js";
import { imageFromUrl } from "../../providers/user-image.js";
import type { Media } from "../../providers/types.js";
import { validationFailed } from "../../validation/issues.js";
import { billedGeneration } from "../../generations/billed-generation.js";
import { drawSize, exactSize, planScreen, QUALITIES, storeSize } from "../screenshot.js";

const PRICE = 4;

function checkQuality(quality: string | undefined): void {
  if (quality !== undefined && !(QUALITIES as readonly string[]).includes(quality)) {
    throw validationFailed([{ path: "quality", message: `Must be one of: ${QUALITIES.join(", ")}.`, type: "any.only", allowed: [...QUALITIES] }]);
  }
}

export default defineAction({
  name: "app_screenshots.generate",
  method: "POST",
  scopes: ["generations:execute"],
  credits: true,
  input: z.strictObject({
    project_id: id(),
    screen_id: id(),
    size: label().optional(),
    quality: label().optional(),
  }),
  price: { credits: PRICE, per: "call" },
  weight: 5,
  purpose: "generate one store screenshot from a project",
  mode: "model",
  uses: ["image"],
  output: z
    .object({
      object: z.literal("app_screenshot"),
      generation_id: z.string().describe("The generations record of this screenshot."),
      project_id: z.string(),
      screen_id: z.string(),
      url: z.string().describe("A signed link to the stored PNG."),
      content_type: z.string(),
      size_bytes: z.number().int(),
      width: z.number().int(),
      height: z.number().int(),
      size: z.string().describe("The size asked for: a store size's name or WIDTHxHEIGHT."),
      prompt: z.string().describe("The prompt the image model drew from."),
      references_used: z.number().int().describe("Reference images sent with the prompt."),
      model: z.string().describe("`<provider>/<model id>` that drew it."),
    })
    .meta({ id: "AppScreenshot", description: "One store screenshot of a project's screen, at exact pixels." }),
  async example(setup) {
    const project = await setup.action("app_screenshots.create", { project_name: "Habit tracker store page" });
    const updated = await setup.action("app_screenshots.update", { project_id: project.project_id, global_prompt: "Clean pastel UI", screens: [{ title: "Today", prompt: "The daily checklist" }] });
    const screens = updated.screens as { screen_id: string }[];
    return { project_id: project.project_id, screen_id: screens[0]!.screen_id, size: "android_phone", quality: "low" };
  },
  async check({ graphql }, input) {
    storeSize(input.size);
    checkQuality(input.quality);
    await planScreen(graphql, input);
  },
  async run(context, input) {
    const { graphql, providers, files } = context;
    const plan = await planScreen(graphql, input);
    const target = storeSize(input.size);
    // References are read before the drawing: one that is no image is the caller's 422, not a failed generation.
    const references: Media[] = [];
    for (const [index, url] of plan.references.entries()) references.push(await imageFromUrl(graphql.services.outbound, url, `references.${index}`));
    const request = { prompt: plan.prompt, size: drawSize(target), quality: input.quality, n: 1 };
    const workspaceId = graphql.auth.workspaceId;
    const spec = {
      action: "app_screenshots.generate",
      agentType: "image" as const,
      model: graphql.services.providers.model("image")!.ref,
      prompt: plan.prompt,
      agentId: plan.agentId,
      metadata: { project_id: input.project_id, screen_id: input.screen_id, size: target.name, drawn_size: request.size, quality: input.quality ?? null, references: plan.references },
    };
    return billedGeneration(
      context,
      spec,
      async (generationId) => {
        const image = providers.get("image");
        const drawn = references.length > 0 ? await image.edit({ ...request, images: references }) : await image.generate(request);
        const output = drawn.images[0];
        if (!output) throw new ApiError("upstream_error", "The image model answered no image.", { details: { provider: drawn.meta.provider, reason: "invalid_answer" } });
        const exact = await exactSize(output.data, target);
        const stored = await storeMedia(files, { folder: "generations", workspaceId, recordId: generationId, index: 0 }, { data: exact.data, mediaType: "image/png", width: exact.width, height: exact.height });
        const file = { key: stored.key, content_type: stored.content_type, size_bytes: stored.size_bytes, width: exact.width, height: exact.height };
        return { outputUrls: [stored.url], metadata: { width: exact.width, height: exact.height, files: [file] }, value: { stored, exact, model: `${drawn.meta.provider}/${drawn.meta.model}` } };
      },
      async (_tx, generation, { stored, exact, model }) => ({
        object: "app_screenshot" as const,
        generation_id: generation.generation_id,
        project_id: input.project_id,
        screen_id: input.screen_id,
        url: stored.url,
        content_type: stored.content_type,
        size_bytes: stored.size_bytes,
        width: exact.width,
        height: exact.height,
        size: target.name,
        prompt: plan.prompt,
        references_used: references.length,
        model,
      }),
    );
  },
});
