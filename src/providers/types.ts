// The provider layer's contract: one interface per capability a model (or a local tool) offers.
// Actions and operations reach models only through these interfaces (src/providers/registry.ts
// resolves the configured adapter); adapters live beside this file, one per provider protocol.
// Every call returns what it used (`meta`), so the caller can put it on the ledger entry it pays.
import type { z } from "zod";

export { CAPABILITIES, type Capability } from "../config/providers.js";
import type { Capability } from "../config/providers.js";

/** What one provider call consumed; only the fields that apply are set. */
export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  images?: number;
  /** Seconds of audio or video produced or read. */
  seconds?: number;
  characters?: number;
  /** Calls that are priced per request (a search). */
  requests?: number;
}

/** Who answered a call and what it used; recorded against the ledger entry of the action call. */
export interface CallMeta {
  capability: Capability;
  /** `openai`, `fal`, `elevenlabs`, `searxng`, `tavily`, `local`. */
  provider: string;
  /** The model id without the provider prefix (`gpt-4.1-mini`, `fal-ai/flux/schnell`, `espeak-ng`). */
  model: string;
  usage: Usage;
  duration_ms: number;
}

/** Per-call options every capability accepts. */
export interface CallOptions {
  /** Aborts the call (the layer also applies its own time limit). */
  signal?: AbortSignal;
}

/** Bytes of a piece of media, with their MIME type. */
export interface Media {
  data: Uint8Array;
  mediaType: string;
}

/** A produced piece of audio or video, with its length when known. */
export interface MediaOutput extends Media {
  durationSeconds?: number;
  width?: number;
  height?: number;
}

/** A word and when it is spoken, in seconds from the start of the audio. */
export interface WordTiming {
  word: string;
  start: number;
  end: number;
}

// ---------------------------------------------------------------------------------------------
// Text and vision

export interface TextRequest {
  system?: string;
  prompt: string;
  temperature?: number;
  maxOutputTokens?: number;
}

export interface TextResult {
  text: string;
  meta: CallMeta;
}

export interface StructuredRequest<Schema extends z.ZodType> extends TextRequest {
  /** The shape of the answer; the adapter validates the model's JSON against it. */
  schema: Schema;
  /** A short name of the shape (`instruction_set`), sent to providers that take one. */
  schemaName: string;
}

export interface StructuredResult<T> {
  object: T;
  meta: CallMeta;
}

export interface TextProvider {
  generateText(request: TextRequest, options?: CallOptions): Promise<TextResult>;
  /**
   * The same answer as generateText, streamed: `onDelta` gets each piece of text as the model
   * writes it; the promise is the whole text and what the call used, once the model has finished.
   */
  streamText(request: TextRequest, onDelta: (text: string) => void, options?: CallOptions): Promise<TextResult>;
  generateObject<Schema extends z.ZodType>(request: StructuredRequest<Schema>, options?: CallOptions): Promise<StructuredResult<z.output<Schema>>>;
}

export interface VisionRequest extends TextRequest {
  images: Media[];
}

export interface VisionProvider {
  describe(request: VisionRequest, options?: CallOptions): Promise<TextResult>;
  describeObject<Schema extends z.ZodType>(request: VisionRequest & { schema: Schema; schemaName: string }, options?: CallOptions): Promise<StructuredResult<z.output<Schema>>>;
}

// ---------------------------------------------------------------------------------------------
// Images

export interface ImageRequest {
  prompt: string;
  /** `WIDTHxHEIGHT`, e.g. `1024x1024`. */
  size?: string;
  quality?: string;
  /** How many images, 1 to 10. */
  n?: number;
}

export interface ImageEditRequest extends ImageRequest {
  images: Media[];
  mask?: Media;
}

export interface ImageResult {
  images: MediaOutput[];
  meta: CallMeta;
}

export interface ImageProvider {
  generate(request: ImageRequest, options?: CallOptions): Promise<ImageResult>;
  edit(request: ImageEditRequest, options?: CallOptions): Promise<ImageResult>;
}

// ---------------------------------------------------------------------------------------------
// Speech and transcription

export interface SpeechRequest {
  text: string;
  /** A voice id of the provider (`alloy`, an ElevenLabs voice id, an espeak-ng voice `en-us`). */
  voice?: string;
  language?: string;
  /** 0.5 to 2. */
  speed?: number;
  format?: "mp3" | "wav";
}

export interface SpeechResult {
  audio: MediaOutput;
  /** Word timings when the provider gives them. */
  words?: WordTiming[];
  meta: CallMeta;
}

export interface SpeechProvider {
  synthesize(request: SpeechRequest, options?: CallOptions): Promise<SpeechResult>;
}

export interface TranscriptionRequest {
  audio: Media;
  language?: string;
}

export interface TranscriptionResult {
  text: string;
  language?: string;
  durationSeconds?: number;
  words: WordTiming[];
  /** The server gave segment times only; the words were spread evenly over each segment. */
  wordsEstimated?: boolean;
  meta: CallMeta;
}

export interface TranscriptionProvider {
  transcribe(request: TranscriptionRequest, options?: CallOptions): Promise<TranscriptionResult>;
}

// ---------------------------------------------------------------------------------------------
// Long-running media (video, lip-sync, music, background removal)

/**
 * How a long job reports back while it runs. `resume` is the provider's request id saved by an
 * earlier attempt (a worker that died while polling): the adapter polls it instead of submitting
 * again, so a retaken operation is never paid for twice upstream.
 */
export interface LongRunContext extends CallOptions {
  resume?: string;
  /** Called once the provider accepted the job, with its request id (the caller saves it). */
  onSubmitted?(requestId: string): Promise<void>;
  /** 0 to 100, when the provider reports it. */
  onProgress?(percent: number): void;
}

export interface LongRunResult {
  outputs: MediaOutput[];
  meta: CallMeta;
  /** The provider's request id of the job (absent for local tools). */
  requestId?: string;
  /**
   * Lip-sync only: false when the speaker's photo was held over the recording (`local/still`)
   * instead of a model moving the lips; say so to the user, and price it as such.
   */
  lipSynced?: boolean;
}

export interface VideoRequest {
  prompt: string;
  /** A first frame (image-to-video). */
  image?: Media;
  /** A last frame, where the model takes one. */
  endImage?: Media;
  durationSeconds?: number;
  /** `16:9`, `9:16`, `1:1`. */
  aspectRatio?: string;
  withAudio?: boolean;
}

export interface LipsyncRequest {
  /** The speaker's photo. */
  image: Media;
  audio: Media;
}

export interface MusicRequest {
  prompt?: string;
  lyrics?: string;
  style?: string;
  title?: string;
  instrumental?: boolean;
  durationSeconds?: number;
}

export interface CutoutRequest {
  image: Media;
}

export interface LongRunningProvider<Request> {
  run(request: Request, context?: LongRunContext): Promise<LongRunResult>;
}

// ---------------------------------------------------------------------------------------------
// Web search and page reading

export interface SearchRequest {
  query: string;
  /** At most this many results (default 5). */
  limit?: number;
  /** Only results from the last day, week, month or year. */
  freshness?: "day" | "week" | "month" | "year";
  language?: string;
}

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
  published_at?: string;
}

export interface SearchResult {
  results: SearchHit[];
  meta: CallMeta;
}

export interface SearchProvider {
  search(request: SearchRequest, options?: CallOptions): Promise<SearchResult>;
}

export interface PageResult {
  /** The address read. */
  url: string;
  title: string;
  /** The readable main text, paragraphs separated by blank lines. */
  text: string;
  byline?: string;
  excerpt?: string;
  meta: CallMeta;
}

/** Reads a page a user named: fetched only through the URL guard, main text extracted. */
export interface PageReader {
  read(url: string, options?: CallOptions): Promise<PageResult>;
}

/** The adapter type behind each capability. */
export interface CapabilityAdapters {
  text: TextProvider;
  vision: VisionProvider;
  image: ImageProvider;
  speech: SpeechProvider;
  transcription: TranscriptionProvider;
  video: LongRunningProvider<VideoRequest>;
  lipsync: LongRunningProvider<LipsyncRequest>;
  music: LongRunningProvider<MusicRequest>;
  cutout: LongRunningProvider<CutoutRequest>;
  search: SearchProvider;
  page: PageReader;
}
