// fal's queue protocol (submit, status, result) through @fal-ai/client, for the long-running
// capabilities: video, lip-sync, music and background removal. The client is pointed at the
// configured base URL with a requestMiddleware (CUTROOM_FAL_BASE_URL replaces
// https://queue.fal.run), and fetches through fetchWithRetries, so fal calls follow the same retry
// policy as every other hand adapter. Input media travel inline as data URIs (fal accepts them
// wherever it takes a file URL), so nothing is uploaded to fal's storage first. Output media are
// downloaded through the URL guard: the address comes from the provider's answer.
import { createFalClient, type FalClient, type QueueStatus } from "@fal-ai/client";
import { setTimeout as sleep } from "node:timers/promises";
import { callMeta, limitSignal, limitedCall, retryingFetch } from "../call.js";
import { ProviderAnswerError, ProviderHttpError } from "../errors.js";
import { guardedGet } from "../guarded-get.js";
import { dataUri, decodeDataUri, mediaFacts, sniffMediaType } from "../media-info.js";
import type { ModelChoice } from "../../config/providers.js";
import { retryPolicyOf, targetOf, type ProviderRuntime } from "../runtime.js";
import type { CutoutRequest, LipsyncRequest, LongRunContext, LongRunningProvider, LongRunResult, MediaOutput, MusicRequest, Usage, VideoRequest } from "../types.js";

/** fal's own queue host; requests the client builds for it are rebased onto CUTROOM_FAL_BASE_URL. */
const FAL_QUEUE_ORIGIN = "https://queue.fal.run";
/** Largest output file downloaded (a long 1080p video fits). */
const MAX_OUTPUT_BYTES = 512 * 1024 * 1024;

function falClient(runtime: ProviderRuntime): FalClient {
  const fal = runtime.settings.fal;
  if (!fal) throw new Error("The fal adapter was built without FAL_KEY (settings should have refused the model).");
  return createFalClient({
    credentials: () => fal.apiKey.reveal(),
    suppressLocalCredentialsWarning: true,
    requestMiddleware: async (request) => ({
      ...request,
      url: request.url.startsWith(FAL_QUEUE_ORIGIN) ? fal.baseUrl + request.url.slice(FAL_QUEUE_ORIGIN.length) : request.url,
    }),
    fetch: retryingFetch(retryPolicyOf(runtime.settings)),
  });
}

/** A file in a fal result: `{ url, content_type?, width?, height? }`. */
interface FalFile {
  url: string;
  content_type?: string;
  width?: number;
  height?: number;
}

function isFalFile(value: unknown): value is FalFile {
  return typeof value === "object" && value !== null && typeof (value as { url?: unknown }).url === "string";
}

/** The output files of a result: the named keys first (`video`, `audio`, `image`), else any file-valued key. */
function resultFiles(data: unknown, keys: readonly string[]): FalFile[] {
  if (typeof data !== "object" || data === null) return [];
  const record = data as Record<string, unknown>;
  const filesAt = (value: unknown): FalFile[] => (Array.isArray(value) ? value.filter(isFalFile) : isFalFile(value) ? [value] : []);
  const named = keys.flatMap((key) => filesAt(record[key]));
  return named.length > 0 ? named : Object.values(record).flatMap(filesAt);
}

/** Percent done from the latest log line that states one (`42%`), when fal's logs do. */
function progressFromLogs(status: QueueStatus): number | undefined {
  const logs = "logs" in status && Array.isArray(status.logs) ? status.logs : [];
  for (let index = logs.length - 1; index >= 0; index--) {
    const match = /(\d{1,3}(?:\.\d+)?)\s*%/.exec(logs[index]?.message ?? "");
    if (match) return Math.min(100, Number(match[1]));
  }
  return undefined;
}

interface FalJob<Request> {
  /** The endpoint a request goes to (video swaps text-to-video for image-to-video). */
  endpoint(model: string, request: Request): string;
  input(request: Request): Record<string, unknown>;
  /** Result keys holding the output media, in order of preference. */
  outputKeys: readonly string[];
  usage(outputs: MediaOutput[]): Usage;
}

function secondsOf(outputs: MediaOutput[]): Usage {
  const seconds = outputs.reduce((sum, output) => sum + (output.durationSeconds ?? 0), 0);
  return seconds > 0 ? { seconds: Math.round(seconds * 1000) / 1000 } : {};
}

function falLongRunning<Request>(choice: ModelChoice, runtime: ProviderRuntime, job: FalJob<Request>): LongRunningProvider<Request> {
  const client = falClient(runtime);
  const target = targetOf(choice);
  const { longTimeoutMs, timeoutMs, pollIntervalMs } = runtime.settings;

  async function download(file: FalFile): Promise<MediaOutput> {
    let data: Uint8Array;
    let mediaType = file.content_type;
    const inline = file.url.startsWith("data:") ? decodeDataUri(file.url) : undefined;
    if (inline) {
      data = inline.data;
      mediaType ??= inline.mediaType;
    } else {
      const { result: answer } = await guardedGet(runtime.outbound, file.url, { timeoutMs, maxResponseBytes: MAX_OUTPUT_BYTES });
      if (answer.status !== 200) throw new ProviderHttpError(answer.status);
      if (answer.truncated) throw new ProviderAnswerError("its output is larger than the service accepts");
      data = new Uint8Array(answer.body);
    }
    const type = sniffMediaType(data) ?? mediaType ?? "application/octet-stream";
    const facts = await mediaFacts(data, type, runtime.workDir);
    return { data, mediaType: type, ...facts, ...(facts.width === undefined && file.width !== undefined && { width: file.width, height: file.height }) };
  }

  return {
    async run(request: Request, context?: LongRunContext): Promise<LongRunResult> {
      const endpoint = job.endpoint(choice.model, request);
      const { value, durationMs } = await limitedCall(target, longTimeoutMs, context, async (signal) => {
        // Each request to fal also has the synchronous limit, so one hung poll cannot eat the whole job's time.
        const step = () => limitSignal(timeoutMs, signal);
        let requestId = context?.resume;
        if (!requestId) {
          const submitted = await client.queue.submit(endpoint, { input: job.input(request), abortSignal: step() });
          requestId = submitted.request_id;
          await context?.onSubmitted?.(requestId);
        }
        let lastProgress = -1;
        for (;;) {
          const status = await client.queue.status(endpoint, { requestId, logs: true, abortSignal: step() });
          if (status.status === "COMPLETED") break;
          const progress = status.status === "IN_QUEUE" ? 0 : progressFromLogs(status);
          if (progress !== undefined && progress !== lastProgress) {
            lastProgress = progress;
            context?.onProgress?.(progress);
          }
          await sleep(pollIntervalMs, undefined, { signal });
        }
        const result = await client.queue.result(endpoint, { requestId, abortSignal: step() });
        const files = resultFiles(result.data, job.outputKeys);
        if (files.length === 0) throw new ProviderAnswerError("its result held no media", "job_failed");
        const outputs = await Promise.all(files.map(download));
        context?.onProgress?.(100);
        return { outputs, requestId };
      });
      return { outputs: value.outputs, requestId: value.requestId, meta: callMeta(target, job.usage(value.outputs), durationMs), ...(choice.capability === "lipsync" && { lipSynced: true }) };
    },
  };
}

/**
 * Video: Kling-style input (`prompt`, `duration` as "5", `aspect_ratio`, `image_url`,
 * `tail_image_url`). A request with a first frame goes to the image-to-video sibling of a
 * `…/text-to-video` endpoint; any other endpoint receives the image as `image_url` as it is.
 */
export function falVideo(choice: ModelChoice, runtime: ProviderRuntime): LongRunningProvider<VideoRequest> {
  return falLongRunning<VideoRequest>(choice, runtime, {
    endpoint: (model, request) => (request.image && model.endsWith("/text-to-video") ? `${model.slice(0, -"/text-to-video".length)}/image-to-video` : model),
    input: (request) => ({
      prompt: request.prompt,
      ...(request.durationSeconds !== undefined && { duration: String(Math.round(request.durationSeconds)) }),
      ...(request.aspectRatio !== undefined && { aspect_ratio: request.aspectRatio }),
      ...(request.image && { image_url: dataUri(request.image.data, request.image.mediaType) }),
      ...(request.endImage && { tail_image_url: dataUri(request.endImage.data, request.endImage.mediaType) }),
      ...(request.withAudio !== undefined && { generate_audio: request.withAudio }),
    }),
    outputKeys: ["video", "videos"],
    usage: secondsOf,
  });
}

/** Lip-sync: a photo and a recording (`image_url`, `audio_url`, the AI-avatar models' input). */
export function falLipsync(choice: ModelChoice, runtime: ProviderRuntime): LongRunningProvider<LipsyncRequest> {
  return falLongRunning<LipsyncRequest>(choice, runtime, {
    endpoint: (model) => model,
    input: (request) => ({ image_url: dataUri(request.image.data, request.image.mediaType), audio_url: dataUri(request.audio.data, request.audio.mediaType) }),
    outputKeys: ["video"],
    usage: secondsOf,
  });
}

/** Music: ACE-Step's input (`tags` from style and prompt, `lyrics`, `[inst]` for instrumental, `duration`). */
export function falMusic(choice: ModelChoice, runtime: ProviderRuntime): LongRunningProvider<MusicRequest> {
  return falLongRunning<MusicRequest>(choice, runtime, {
    endpoint: (model) => model,
    input: (request) => ({
      // ACE-Step requires tags; with neither style nor prompt, the title (or a neutral word) stands in.
      tags: [request.style, request.prompt].filter((part) => part?.trim()).join(", ") || request.title?.trim() || "melodic",
      lyrics: request.instrumental || !request.lyrics ? "[inst]" : request.lyrics,
      ...(request.durationSeconds !== undefined && { duration: request.durationSeconds }),
    }),
    outputKeys: ["audio", "audio_file"],
    usage: secondsOf,
  });
}

/** Background removal: `image_url` in, the cut-out PNG (`image`) out. */
export function falCutout(choice: ModelChoice, runtime: ProviderRuntime): LongRunningProvider<CutoutRequest> {
  return falLongRunning<CutoutRequest>(choice, runtime, {
    endpoint: (model) => model,
    input: (request) => ({ image_url: dataUri(request.image.data, request.image.mediaType) }),
    outputKeys: ["image"],
    usage: (outputs) => ({ images: outputs.length }),
  });
}
