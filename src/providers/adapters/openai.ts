// Any OpenAI-compatible server, through the Vercel AI SDK (6): Chat Completions for text, vision
// and structured output (a JSON schema sent as response_format json_schema), /images/generations
// and /images/edits, /audio/speech, and /audio/transcriptions with word timestamps. The chat
// factory is used because compatible servers implement Chat Completions, not the Responses API.
// Retries are the SDK's own (maxRetries: backoff on 429/5xx, Retry-After honoured).
import { createOpenAI, type OpenAIProvider } from "@ai-sdk/openai";
import { Output, experimental_generateSpeech as generateSpeech, experimental_transcribe as transcribe, generateImage, generateText, streamText, type LanguageModelUsage, type ModelMessage } from "ai";
import { z } from "zod";
import { ApiError } from "../../errors/api-error.js";
import { callMeta, limitedCall } from "../call.js";
import { mediaFacts, sniffMediaType } from "../media-info.js";
import type { ModelChoice } from "../../config/providers.js";
import { targetOf, type ProviderRuntime } from "../runtime.js";
import type {
  CallOptions,
  ImageEditRequest,
  ImageProvider,
  ImageRequest,
  ImageResult,
  Media,
  SpeechProvider,
  StructuredResult,
  TextProvider,
  TextRequest,
  TranscriptionProvider,
  Usage,
  VisionProvider,
  VisionRequest,
  WordTiming,
} from "../types.js";

function sdkProvider(runtime: ProviderRuntime): OpenAIProvider {
  const openai = runtime.settings.openai;
  if (!openai) throw new Error("The openai adapter was built without OPENAI_API_KEY (settings should have refused the model).");
  // baseURL always given: left out, the SDK would read OPENAI_BASE_URL from the environment itself.
  return createOpenAI({ apiKey: openai.apiKey.reveal(), baseURL: openai.baseUrl, name: "openai" });
}

function tokenUsage(usage: LanguageModelUsage): Usage {
  return {
    ...(usage.inputTokens !== undefined && { input_tokens: usage.inputTokens }),
    ...(usage.outputTokens !== undefined && { output_tokens: usage.outputTokens }),
  };
}

// Strict mode would refuse every schema with an optional property (OpenAI requires all of them
// listed as required); the schema is still sent, and the SDK validates the answer against it.
const STRUCTURED_OPTIONS = { openai: { strictJsonSchema: false } };

function visionMessages(request: VisionRequest): ModelMessage[] {
  return [{
    role: "user",
    content: [
      { type: "text", text: request.prompt },
      ...request.images.map((image) => ({ type: "image" as const, image: image.data, mediaType: image.mediaType })),
    ],
  }];
}

/** One chat call (plain or structured), shared by text and vision. */
function chatCaller(choice: ModelChoice, runtime: ProviderRuntime) {
  const model = sdkProvider(runtime).chat(choice.model);
  const target = targetOf(choice);
  const { timeoutMs, maxRetries } = runtime.settings;
  const common = (request: TextRequest, signal: AbortSignal) => ({
    model,
    system: request.system,
    temperature: request.temperature,
    maxOutputTokens: request.maxOutputTokens,
    maxRetries,
    abortSignal: signal,
  });
  return {
    async text(request: TextRequest, messages: ModelMessage[] | undefined, options?: CallOptions) {
      const { value, durationMs } = await limitedCall(target, timeoutMs, options, (signal) =>
        messages ? generateText({ ...common(request, signal), messages }) : generateText({ ...common(request, signal), prompt: request.prompt }),
      );
      return { text: value.text, meta: callMeta(target, tokenUsage(value.totalUsage), durationMs) };
    },
    /** A plain chat call streamed: each text delta handed to `onDelta` as it arrives. */
    async stream(request: TextRequest, onDelta: (text: string) => void, options?: CallOptions) {
      const { value, durationMs } = await limitedCall(target, timeoutMs, options, async (signal) => {
        // Failures come through the stream as error parts (thrown here), not through onError.
        const result = streamText({ ...common(request, signal), prompt: request.prompt, onError: () => undefined });
        let text = "";
        for await (const part of result.fullStream) {
          if (part.type === "text-delta") {
            text += part.text;
            onDelta(part.text);
          } else if (part.type === "error") {
            throw part.error;
          }
        }
        return { text, usage: await result.totalUsage };
      });
      return { text: value.text, meta: callMeta(target, tokenUsage(value.usage), durationMs) };
    },
    async object<Schema extends z.ZodType>(request: TextRequest & { schema: Schema; schemaName: string }, messages: ModelMessage[] | undefined, options?: CallOptions): Promise<StructuredResult<z.output<Schema>>> {
      const output = Output.object({ schema: request.schema, name: request.schemaName });
      const { value, durationMs } = await limitedCall(target, timeoutMs, options, async (signal) => {
        const result = messages
          ? await generateText({ ...common(request, signal), messages, output, providerOptions: STRUCTURED_OPTIONS })
          : await generateText({ ...common(request, signal), prompt: request.prompt, output, providerOptions: STRUCTURED_OPTIONS });
        // The SDK has parsed the answer with the schema itself (a mismatch throws, and becomes
        // invalid_answer), so `output` is the schema's output: transforms and defaults applied.
        return { object: result.output as z.output<Schema>, usage: result.totalUsage };
      });
      return { object: value.object, meta: callMeta(target, tokenUsage(value.usage), durationMs) };
    },
  };
}

export function openAiText(choice: ModelChoice, runtime: ProviderRuntime): TextProvider {
  const chat = chatCaller(choice, runtime);
  return {
    generateText: (request, options) => chat.text(request, undefined, options),
    streamText: (request, onDelta, options) => chat.stream(request, onDelta, options),
    generateObject: (request, options) => chat.object(request, undefined, options),
  };
}

export function openAiVision(choice: ModelChoice, runtime: ProviderRuntime): VisionProvider {
  const chat = chatCaller(choice, runtime);
  const needsImage = (request: VisionRequest) => {
    if (request.images.length === 0) throw new ApiError("invalid_request", "A vision call needs at least one image.", { param: "images" });
  };
  return {
    async describe(request, options) {
      needsImage(request);
      return chat.text(request, visionMessages(request), options);
    },
    async describeObject(request, options) {
      needsImage(request);
      return chat.object(request, visionMessages(request), options);
    },
  };
}

function imageSize(size: string | undefined): `${number}x${number}` | undefined {
  if (size === undefined) return undefined;
  if (!/^\d{2,5}x\d{2,5}$/.test(size)) throw new ApiError("invalid_request", `The image size '${size}' is not WIDTHxHEIGHT (e.g. 1024x1024).`, { param: "size" });
  return size as `${number}x${number}`;
}

function imageCount(n: number | undefined): number {
  const count = n ?? 1;
  if (!Number.isInteger(count) || count < 1 || count > 10) throw new ApiError("invalid_request", "An image call makes 1 to 10 images.", { param: "n" });
  return count;
}

export function openAiImage(choice: ModelChoice, runtime: ProviderRuntime): ImageProvider {
  const model = sdkProvider(runtime).image(choice.model);
  const target = targetOf(choice);
  const { timeoutMs, maxRetries } = runtime.settings;
  const run = async (request: ImageRequest, prompt: Parameters<typeof generateImage>[0]["prompt"], options?: CallOptions): Promise<ImageResult> => {
    const size = imageSize(request.size);
    const n = imageCount(request.n);
    const { value, durationMs } = await limitedCall(target, timeoutMs, options, (signal) =>
      generateImage({
        model,
        prompt,
        n,
        size,
        ...(request.quality !== undefined && { providerOptions: { openai: { quality: request.quality } } }),
        maxRetries,
        abortSignal: signal,
      }),
    );
    const images = await Promise.all(value.images.map(async (file) => {
      const mediaType = sniffMediaType(file.uint8Array) ?? file.mediaType;
      return { data: file.uint8Array, mediaType, ...(await mediaFacts(file.uint8Array, mediaType, runtime.workDir)) };
    }));
    return { images, meta: callMeta(target, { images: images.length }, durationMs) };
  };
  return {
    generate: (request, options) => run(request, request.prompt, options),
    async edit(request: ImageEditRequest, options) {
      if (request.images.length === 0) throw new ApiError("invalid_request", "An image edit needs at least one image.", { param: "images" });
      return run(request, { text: request.prompt, images: request.images.map((image: Media) => image.data), ...(request.mask && { mask: request.mask.data }) }, options);
    },
  };
}

export function openAiSpeech(choice: ModelChoice, runtime: ProviderRuntime): SpeechProvider {
  const model = sdkProvider(runtime).speech(choice.model);
  const target = targetOf(choice);
  const { timeoutMs, maxRetries } = runtime.settings;
  return {
    async synthesize(request, options) {
      const format = request.format ?? "mp3";
      const { value, durationMs } = await limitedCall(target, timeoutMs, options, (signal) =>
        generateSpeech({ model, text: request.text, voice: request.voice, outputFormat: format, speed: request.speed, maxRetries, abortSignal: signal }),
      );
      const data = value.audio.uint8Array;
      const mediaType = sniffMediaType(data) ?? (format === "wav" ? "audio/wav" : "audio/mpeg");
      const facts = await mediaFacts(data, mediaType, runtime.workDir);
      return {
        audio: { data, mediaType, ...facts },
        meta: callMeta(target, { characters: request.text.length, ...(facts.durationSeconds !== undefined && { seconds: facts.durationSeconds }) }, durationMs),
      };
    },
  };
}

/** The `verbose_json` fields the SDK does not surface: word timestamps. */
const verboseTranscript = z.object({
  words: z.array(z.object({ word: z.string(), start: z.number(), end: z.number() })).optional(),
});

/** Spreads a segment's words evenly over its time, for servers that return segments only. */
function estimatedWords(segments: readonly { text: string; startSecond: number; endSecond: number }[]): WordTiming[] {
  return segments.flatMap((segment) => {
    const words = segment.text.split(/\s+/).filter(Boolean);
    const step = words.length > 0 ? (segment.endSecond - segment.startSecond) / words.length : 0;
    return words.map((word, index) => ({ word, start: segment.startSecond + index * step, end: segment.startSecond + (index + 1) * step }));
  });
}

export function openAiTranscription(choice: ModelChoice, runtime: ProviderRuntime): TranscriptionProvider {
  const provider = sdkProvider(runtime);
  const target = targetOf(choice);
  const { timeoutMs, maxRetries } = runtime.settings;
  return {
    async transcribe(request, options) {
      // A model of our own per call, wrapping the SDK's, to keep the raw verbose_json (its words).
      const base = provider.transcription(choice.model);
      let rawBody: unknown;
      const model: typeof base = {
        specificationVersion: base.specificationVersion,
        provider: base.provider,
        modelId: base.modelId,
        async doGenerate(callOptions) {
          const result = await base.doGenerate(callOptions);
          rawBody = result.response.body;
          return result;
        },
      };
      const { value, durationMs } = await limitedCall(target, timeoutMs, options, (signal) =>
        transcribe({
          model,
          audio: request.audio.data,
          providerOptions: { openai: { timestampGranularities: ["word", "segment"], ...(request.language && { language: request.language }) } },
          maxRetries,
          abortSignal: signal,
        }),
      );
      const verbose = verboseTranscript.safeParse(rawBody);
      const exact = verbose.success ? verbose.data.words : undefined;
      const words = exact ?? estimatedWords(value.segments);
      const durationSeconds = value.durationInSeconds ?? words.at(-1)?.end;
      return {
        text: value.text,
        ...(value.language !== undefined && { language: value.language }),
        ...(durationSeconds !== undefined && { durationSeconds }),
        words,
        ...(exact === undefined && words.length > 0 && { wordsEstimated: true }),
        meta: callMeta(target, durationSeconds !== undefined ? { seconds: durationSeconds } : {}, durationMs),
      };
    },
  };
}
