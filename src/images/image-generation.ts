// The image generation operation of images.generate (docs/operations.md): one image per provider
// call, each stored as soon as it exists, paid for as it lands (`spent`), and remembered in the
// checkpoint, so a retaken attempt continues where the dead one stopped instead of paying twice.
// The generation record mirrors the operation:
//   pending ──► running ──► completed    generation.completed (output_urls, credits_consumed)
//                   └─────► failed       generation.failed (credits already spent, the rest refunded)
import { z } from "zod";
import type { Tx } from "../db/transaction.js";
import type { Prisma } from "../generated/prisma/client.js";
import { recordEvent } from "../outbox/record-event.js";
import { defineOperationKind, OperationFailure, type OperationRow, type Settlement } from "../operations/kind.js";
import { presentRecord } from "../resources/selection.js";
import { generations } from "../generations/resource.js";
import { storeMedia, type StoredMedia } from "../generations/stored-media.js";
import { imageFromUrl } from "../providers/user-image.js";
import { ApiError } from "../errors/api-error.js";
import type { Media } from "../providers/types.js";
import type { FileService } from "../storage/from-config.js";

export const imageGenerationInput = z.strictObject({
  prompt: z.string().min(1),
  count: z.number().int().min(1).max(10),
  credits_per_image: z.number().int().min(0),
  size: z.string().optional(),
  quality: z.string().optional(),
  /** Let the text model rewrite the prompt first. */
  optimize: z.boolean(),
  /** A reference image: edited rather than drawn from nothing. */
  reference_url: z.string().optional(),
  /** Further reference images (image_agents.generate), sent along with the first. */
  more_reference_urls: z.array(z.string()).max(10).optional(),
  /** The stored file of a source generation, as reference. */
  reference_key: z.string().optional(),
});

/** A stored output as a generation's checkpoint and metadata keep it (shared with src/generations/media-generation.ts). */
export const storedFile = z.object({
  key: z.string(),
  content_type: z.string(),
  size_bytes: z.number(),
  width: z.number().nullable(),
  height: z.number().nullable(),
});
const checkpointShape = z.object({ prompt_used: z.string().optional(), files: z.array(storedFile).default([]) });

export async function emit(tx: Tx, type: string, row: Record<string, unknown> & { workspace_id: string }, extra: Record<string, unknown> = {}) {
  await recordEvent(tx, { workspaceId: row.workspace_id, type, livemode: true, data: { object: presentRecord(generations, row), ...extra } });
}

export async function moveGeneration(tx: Tx, operation: OperationRow, from: string[], data: Prisma.GenerationUpdateManyMutationInput) {
  const [row] = await tx.generation.updateManyAndReturn({ where: { generation_id: operation.subject_id, status: { in: from } }, data });
  return row;
}

async function fetchedReference(outbound: Parameters<typeof imageFromUrl>[0], url: string, param: string): Promise<Media> {
  try {
    return await imageFromUrl(outbound, url, param);
  } catch (error) {
    throw new OperationFailure("reference_unreachable", error instanceof ApiError ? error.message : "The reference image could not be read.");
  }
}

async function referenceImages(files: FileService, outbound: Parameters<typeof imageFromUrl>[0], input: z.output<typeof imageGenerationInput>): Promise<Media[]> {
  const references: Media[] = [];
  if (input.reference_key) {
    const chunks: Buffer[] = [];
    for await (const chunk of await files.storage.open(input.reference_key)) chunks.push(chunk as Buffer);
    const data = new Uint8Array(Buffer.concat(chunks));
    references.push({ data, mediaType: (await files.storage.stat(input.reference_key))?.contentType ?? "image/png" });
  }
  if (input.reference_url) references.push(await fetchedReference(outbound, input.reference_url, "reference_image_url"));
  for (const [index, url] of (input.more_reference_urls ?? []).entries()) references.push(await fetchedReference(outbound, url, `additional_reference_image_urls.${index}`));
  return references;
}

/** The files' signed links, for the record. */
const linksOf = (files: FileService, stored: readonly { key: string }[]) => stored.map((file) => files.signedUrl(file.key));

function finishedData(files: FileService, operation: OperationRow, settlement: Settlement) {
  const checkpoint = checkpointShape.parse(operation.checkpoint ?? {});
  const links = linksOf(files, checkpoint.files);
  return { links, checkpoint, credits_consumed: settlement.creditsSpent };
}

export const imageGenerationOperation = defineOperationKind({
  kind: "image_generation",
  queue: "image",
  input: imageGenerationInput,
  maxAttempts: 2,

  async onStart(tx, operation) {
    await moveGeneration(tx, operation, ["pending"], { status: "running" });
  },

  async run(context, input) {
    const { providers, files, operation } = context;
    const done = checkpointShape.parse(operation.checkpoint ?? {});
    let prompt = done.prompt_used ?? input.prompt;
    if (input.optimize && !done.prompt_used) {
      const rewritten = await providers.get("text").generateText({
        system: "You rewrite image prompts to get better images: concrete subject, setting, composition, lighting and style, 30 to 80 words, no preamble. Answer with the prompt only.",
        prompt: input.prompt,
      });
      prompt = rewritten.text.trim() || input.prompt;
    }
    const references = await referenceImages(files, context.outbound, input);
    const image = providers.get("image");
    const stored: z.output<typeof storedFile>[] = [...done.files];
    for (let index = stored.length; index < input.count; index++) {
      const drawn = references.length > 0
        ? await image.edit({ prompt, images: references, size: input.size, quality: input.quality, n: 1 }, { signal: context.signal })
        : await image.generate({ prompt, size: input.size, quality: input.quality, n: 1 }, { signal: context.signal });
      const output = drawn.images[0];
      if (!output) throw new OperationFailure("upstream_error", "The image model answered no image.");
      const file: StoredMedia = await storeMedia(files, { folder: "generations", workspaceId: operation.workspace_id, recordId: operation.subject_id, index }, output);
      stored.push({ key: file.key, content_type: file.content_type, size_bytes: file.size_bytes, width: file.width, height: file.height });
      // Paid as it lands, and remembered: a failure keeps what was made, a retake goes on from here.
      await context.checkpoint({ prompt_used: prompt, files: stored });
      await context.spent(input.credits_per_image * stored.length);
      context.progress(((index + 1) / input.count) * 100);
    }
    return { result: { prompt_used: prompt, images: stored.length }, creditsSpent: input.credits_per_image * stored.length };
  },

  async onComplete(tx, operation, settlement, { files }) {
    const { links, checkpoint, credits_consumed } = finishedData(files, operation, settlement);
    const previous = await tx.generation.findUnique({ where: { generation_id: operation.subject_id }, select: { generation_metadata: true } });
    const row = await moveGeneration(tx, operation, ["running"], {
      status: "completed",
      output_urls: links,
      thumbnail_url: links[0] ?? null,
      credits_consumed,
      completed_at: new Date(),
      error_message: null,
      generation_metadata: { ...((previous?.generation_metadata as Record<string, unknown>) ?? {}), prompt_used: checkpoint.prompt_used ?? null, files: checkpoint.files },
    });
    if (row) await emit(tx, "generation.completed", row);
  },

  async onFail(tx, operation, failure, settlement, { files }) {
    // What was made and paid for stays listed; generation.failed says what was spent.
    const { links } = finishedData(files, operation, settlement);
    const row = await moveGeneration(tx, operation, ["pending", "running"], {
      status: "failed",
      error_message: `${failure.code}: ${failure.message}`.slice(0, 2000),
      credits_consumed: settlement.creditsSpent,
      output_urls: links,
      thumbnail_url: links[0] ?? null,
      completed_at: new Date(),
    });
    if (row) await emit(tx, "generation.failed", row, { error_code: failure.code, credits_consumed: settlement.creditsSpent, credits_refunded: settlement.creditsRefunded });
  },

  async onRetake(tx, operation) {
    await moveGeneration(tx, operation, ["running"], { status: "pending" });
  },
});
