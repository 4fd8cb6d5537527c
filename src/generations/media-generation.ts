// The media generation operations (docs/operations.md, docs/generation.md) behind videos_ai.generate,
// videos_ai.extend, generations.launch and the character actions: one output per prompt, each
// stored as soon as it exists, paid for as it lands (`spent`) and remembered in the checkpoint, so
// a retaken attempt goes on where the dead one stopped instead of paying twice. A video's provider
// request id is checkpointed the moment the provider accepts it: a retaken attempt polls that
// request instead of submitting (and paying for) a second one. Images are measured with sharp,
// videos checked with ffprobe, before they are kept. The `generations` record mirrors the
// operation, and so do the playground records a launch made (one per output):
//   pending ──► running ──► completed    generation.completed (output_urls, credits_consumed)
//                   └─────► failed       generation.failed (credits already spent, the rest refunded)
import sharp from "sharp";
import { z } from "zod";
import type { Tx } from "../db/transaction.js";
import { emit, moveGeneration, storedFile as imageStoredFile } from "../images/image-generation.js";
import type { Prisma } from "../generated/prisma/client.js";
import { defineOperationKind, OperationFailure, type OperationRunContext } from "../operations/kind.js";
import { ApiError } from "../errors/api-error.js";
import { imageFromUrl } from "../providers/user-image.js";
import type { Media, MediaOutput } from "../providers/types.js";
import type { FileService } from "../storage/from-config.js";
import { storeMedia } from "./stored-media.js";
import { joinClips, lastFrame, probeVideo } from "./video-files.js";

/** An image the model works from: a URL the user gave (fetched through the URL guard) or a stored file. */
const imageSource = z.strictObject({ url: z.string().optional(), key: z.string().optional(), param: z.string() });
export type ImageSource = z.output<typeof imageSource>;

export const mediaGenerationInput = z.strictObject({
  /** One prompt per output, in order. */
  prompts: z.array(z.string().min(1)).min(1).max(10),
  credits_per_output: z.number().int().min(0),
  /** Let the text model rewrite each prompt first. */
  optimize: z.boolean().default(false),
  /** A catalog model ref of the capability; the configured one otherwise. */
  model: z.string().optional(),
  /** Images given to the image model with every prompt (a character's references). */
  references: z.array(imageSource).max(8).default([]),
  image: z.strictObject({ size: z.string().optional(), quality: z.string().optional() }).default({}),
  video: z
    .strictObject({
      duration_seconds: z.number().int().min(1).max(60).optional(),
      aspect_ratio: z.string().optional(),
      with_audio: z.boolean().optional(),
      first_frame: imageSource.optional(),
      last_frame: imageSource.optional(),
      /**
       * videos_ai.extend: the video generation extended. Its stored clip's last frame starts the new
       * segment, and the output is both joined. It must have completed by the time this runs.
       */
      extend_generation_id: z.string().optional(),
    })
    .default({}),
  /** Playground records to fill, one per output (generations.launch). */
  playground_ids: z.array(z.string()).default([]),
});
export type MediaGenerationInput = z.input<typeof mediaGenerationInput>;
type Input = z.output<typeof mediaGenerationInput>;

const storedFile = imageStoredFile.extend({ duration_seconds: z.number().nullable().default(null) });
type StoredFileFacts = z.output<typeof storedFile>;
const checkpointShape = z.object({
  prompts_used: z.array(z.string()).optional(),
  files: z.array(storedFile).default([]),
  /** The provider request of the output being made (video): polled, never paid for again. */
  request_id: z.string().optional(),
  request_index: z.number().int().optional(),
});
type Checkpoint = z.output<typeof checkpointShape>;

async function readStored(files: FileService, key: string): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of await files.storage.open(key)) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

async function loadImage(context: OperationRunContext, source: ImageSource): Promise<Media> {
  if (source.key) {
    const data = await readStored(context.files, source.key);
    return { data, mediaType: (await context.files.storage.stat(source.key))?.contentType ?? "image/png" };
  }
  try {
    return await imageFromUrl(context.outbound, source.url ?? "", source.param);
  } catch (error) {
    throw new OperationFailure("reference_unreachable", error instanceof ApiError ? error.message : `${source.param} could not be read.`);
  }
}

async function rewritten(context: OperationRunContext, input: Input, done: Checkpoint): Promise<string[]> {
  if (done.prompts_used) return done.prompts_used;
  if (!input.optimize) return input.prompts;
  const text = context.providers.get("text");
  const cache = new Map<string, string>();
  for (const prompt of new Set(input.prompts)) {
    const answer = await text.generateText({
      system: "You rewrite prompts for an image or video model to get better results: concrete subject, setting, composition, motion, lighting and style, 30 to 80 words, no preamble. Answer with the prompt only.",
      prompt,
    });
    cache.set(prompt, answer.text.trim() || prompt);
  }
  return input.prompts.map((prompt) => cache.get(prompt)!);
}

/** Checks an image with sharp before it is kept: its real format and size. */
async function checkedImage(output: MediaOutput): Promise<MediaOutput> {
  try {
    const meta = await sharp(output.data).metadata();
    if (!meta.width || !meta.height) throw new Error("no size");
    return { ...output, width: meta.width, height: meta.height };
  } catch {
    throw new OperationFailure("upstream_error", "The image model answered something that is not an image.");
  }
}

/** Checks a video with ffprobe before it is kept: a picture stream, its size and length. */
async function checkedVideo(output: MediaOutput, workDir: string): Promise<MediaOutput> {
  const facts = await probeVideo(output.data, workDir);
  if (!facts) throw new OperationFailure("upstream_error", "The video model answered something that is not a playable video.");
  return { ...output, mediaType: output.mediaType.startsWith("video/") ? output.mediaType : "video/mp4", width: facts.width, height: facts.height, durationSeconds: facts.durationSeconds };
}

type Draw = (context: OperationRunContext, input: Input, prompt: string, index: number, state: { done: Checkpoint; save(extra: Partial<Checkpoint>): Promise<void> }) => Promise<MediaOutput>;

const referencesRead = new WeakMap<OperationRunContext, Promise<Media[]>>();

const drawImage: Draw = async (context, input, prompt) => {
  const image = input.model ? context.providers.getModel("image", input.model) : context.providers.get("image");
  // Fetched once per attempt, sent with every prompt.
  let references = referencesRead.get(context);
  if (!references) referencesRead.set(context, (references = Promise.all(input.references.map((source) => loadImage(context, source)))));
  const images = await references;
  const request = { prompt, size: input.image.size, quality: input.image.quality, n: 1 };
  const drawn = images.length > 0 ? await image.edit({ ...request, images }, { signal: context.signal }) : await image.generate(request, { signal: context.signal });
  const output = drawn.images[0];
  if (!output) throw new OperationFailure("upstream_error", "The image model answered no image.");
  return checkedImage(output);
};

/** The stored clip of a finished video generation of the same workspace. */
async function clipToExtend(context: OperationRunContext, generationId: string): Promise<string> {
  const source = await context.prisma.generation.findUnique({ where: { generation_id: generationId }, select: { workspace_id: true, status: true, generation_metadata: true } });
  const clip = ((source?.generation_metadata as { files?: StoredFileFacts[] } | null)?.files ?? []).find((file) => file.content_type.startsWith("video/"));
  if (!source || source.workspace_id !== context.operation.workspace_id || source.status !== "completed" || !clip) {
    throw new OperationFailure("source_unfinished", `The video generation ${generationId} has no finished clip to extend (it is ${source?.status ?? "gone"}).`);
  }
  return clip.key;
}

/** The model aspect ratio nearest a clip's picture. */
function aspectOf(facts: { width: number; height: number } | undefined): string | undefined {
  if (!facts) return undefined;
  const ratio = facts.width / facts.height;
  return ratio > 1.2 ? "16:9" : ratio < 0.83 ? "9:16" : "1:1";
}

const drawVideo: Draw = async (context, input, prompt, index, state) => {
  const video = input.model ? context.providers.getModel("video", input.model) : context.providers.get("video");
  const workDir = await context.workDir();
  const source = input.video.extend_generation_id ? await readStored(context.files, await clipToExtend(context, input.video.extend_generation_id)) : undefined;
  const firstFrame = source ? await lastFrame(source, workDir, context.signal) : input.video.first_frame && (await loadImage(context, input.video.first_frame));
  const endImage = input.video.last_frame && (await loadImage(context, input.video.last_frame));
  const count = input.prompts.length;
  const clip = await video.run(
    {
      prompt,
      image: firstFrame,
      endImage,
      durationSeconds: input.video.duration_seconds,
      aspectRatio: input.video.aspect_ratio ?? (source ? aspectOf(await probeVideo(source, workDir)) : undefined),
      withAudio: input.video.with_audio,
    },
    {
      resume: state.done.request_index === index ? state.done.request_id : undefined,
      signal: context.signal,
      onSubmitted: (requestId) => state.save({ request_id: requestId, request_index: index }),
      onProgress: (percent) => context.progress(((index + percent / 100) / count) * 100),
    },
  );
  const output = clip.outputs[0];
  if (!output) throw new OperationFailure("upstream_error", "The video model answered no video.");
  const segment = await checkedVideo(output, workDir);
  if (!source) return segment;
  return checkedVideo(await joinClips(source, segment.data, workDir, context.signal), workDir);
};

/** The files' signed links, for the records. */
const linksOf = (files: FileService, stored: readonly { key: string }[]) => stored.map((file) => files.signedUrl(file.key));

/** Fills the launch's playground records: one per output made, the others failed. */
async function settlePlayground(tx: Tx, input: Input, stored: readonly StoredFileFacts[], links: string[], generationId: string, status: "completed" | "failed") {
  for (const [index, id] of input.playground_ids.entries()) {
    const file = stored[index];
    await tx.playgroundGeneration.updateMany({
      where: { playground_generation_id: id },
      data: file
        ? {
            status: "completed",
            media_url: links[index]!,
            thumbnail_url: file.content_type.startsWith("image/") ? links[index]! : null,
            credits_consumed: input.credits_per_output,
            result_data: { generation_id: generationId, index, ...file } as Prisma.InputJsonValue,
          }
        : { status, credits_consumed: 0, result_data: { generation_id: generationId, index } },
    });
  }
}

function mediaGenerationKind(capability: "image" | "video", draw: Draw) {
  return defineOperationKind({
    kind: `${capability}_media_generation`,
    queue: capability,
    input: mediaGenerationInput,
    maxAttempts: 2,

    async onStart(tx, operation) {
      await moveGeneration(tx, operation, ["pending"], { status: "running" });
      const input = mediaGenerationInput.parse(operation.input);
      if (input.playground_ids.length > 0) await tx.playgroundGeneration.updateMany({ where: { playground_generation_id: { in: input.playground_ids } }, data: { status: "running" } });
    },

    async run(context, input) {
      const { files, operation } = context;
      const done = checkpointShape.parse(operation.checkpoint ?? {});
      const prompts = await rewritten(context, input, done);
      const stored: StoredFileFacts[] = [...done.files];
      let state: Checkpoint = { ...done, prompts_used: prompts };
      const save = async (extra: Partial<Checkpoint>) => {
        state = { ...state, ...extra };
        await context.checkpoint(state);
      };
      for (let index = stored.length; index < prompts.length; index++) {
        const output = await draw(context, input, prompts[index]!, index, { done, save });
        const file = await storeMedia(files, { folder: "generations", workspaceId: operation.workspace_id, recordId: operation.subject_id, index }, output);
        stored.push({ key: file.key, content_type: file.content_type, size_bytes: file.size_bytes, width: file.width, height: file.height, duration_seconds: file.duration_seconds });
        // Paid as it lands, and remembered: a failure keeps what was made, a retake goes on from here.
        await save({ files: stored, request_id: undefined, request_index: undefined });
        await context.spent(input.credits_per_output * stored.length);
        context.progress(((index + 1) / prompts.length) * 100);
      }
      return { result: { prompts_used: prompts, outputs: stored.length }, creditsSpent: input.credits_per_output * stored.length };
    },

    async onComplete(tx, operation, settlement, { files }) {
      const input = mediaGenerationInput.parse(operation.input);
      const checkpoint = checkpointShape.parse(operation.checkpoint ?? {});
      const links = linksOf(files, checkpoint.files);
      const previous = await tx.generation.findUnique({ where: { generation_id: operation.subject_id }, select: { generation_metadata: true } });
      const row = await moveGeneration(tx, operation, ["running"], {
        status: "completed",
        output_urls: links,
        thumbnail_url: checkpoint.files[0]?.content_type.startsWith("image/") ? links[0] : null,
        credits_consumed: settlement.creditsSpent,
        completed_at: new Date(),
        error_message: null,
        generation_metadata: { ...((previous?.generation_metadata as Record<string, unknown>) ?? {}), prompts_used: checkpoint.prompts_used ?? input.prompts, files: checkpoint.files },
      });
      await settlePlayground(tx, input, checkpoint.files, links, operation.subject_id, "completed");
      if (row) await emit(tx, "generation.completed", row);
    },

    async onFail(tx, operation, failure, settlement, { files }) {
      // What was made and paid for stays listed; generation.failed says what was spent.
      const input = mediaGenerationInput.parse(operation.input);
      const checkpoint = checkpointShape.parse(operation.checkpoint ?? {});
      const links = linksOf(files, checkpoint.files);
      const previous = await tx.generation.findUnique({ where: { generation_id: operation.subject_id }, select: { generation_metadata: true } });
      const row = await moveGeneration(tx, operation, ["pending", "running"], {
        status: "failed",
        error_message: `${failure.code}: ${failure.message}`.slice(0, 2000),
        credits_consumed: settlement.creditsSpent,
        output_urls: links,
        thumbnail_url: checkpoint.files[0]?.content_type.startsWith("image/") ? links[0] : null,
        completed_at: new Date(),
        generation_metadata: { ...((previous?.generation_metadata as Record<string, unknown>) ?? {}), files: checkpoint.files },
      });
      await settlePlayground(tx, input, checkpoint.files, links, operation.subject_id, "failed");
      if (row) await emit(tx, "generation.failed", row, { error_code: failure.code, credits_consumed: settlement.creditsSpent, credits_refunded: settlement.creditsRefunded });
    },

    async onRetake(tx, operation) {
      await moveGeneration(tx, operation, ["running"], { status: "pending" });
    },
  });
}

/** Images from prompts, with reference images when given (characters, image launches). */
export const imageMediaOperation = mediaGenerationKind("image", drawImage);
/** Video clips from prompts (videos_ai, video launches), or a stored clip extended. */
export const videoMediaOperation = mediaGenerationKind("video", drawVideo);
