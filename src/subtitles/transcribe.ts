// Word-level transcription of media (the transcription provider: an OpenAI-compatible
// /audio/transcriptions with word timestamps), and the video a subtitle or timeline call works on.
import type { Tx } from "../db/transaction.js";
import type { GraphQLContext } from "../graphql/context.js";
import type { CallProviders } from "../actions/framework/action.js";
import { loadOwned } from "../resources/service.js";
import type { Media, TranscriptionResult } from "../providers/types.js";
import { videos, type TimedWord, type StoredComposition, videoCaptionsShape, type VideoCaptions } from "../video-model/index.js";

export interface Transcript {
  text: string;
  language: string | null;
  words: TimedWord[];
  /** The provider gave segment times only: words were spread evenly over each segment. */
  words_estimated: boolean;
}

const ms = (seconds: number) => Math.round(seconds * 1000) / 1000;

export function transcriptOf(result: TranscriptionResult): Transcript {
  const words = result.words
    .filter((word) => word.word.trim().length > 0)
    .map((word) => ({ word: word.word.trim(), start: ms(Math.max(0, word.start)), end: ms(Math.max(word.start, word.end)) }));
  return { text: result.text, language: result.language ?? null, words, words_estimated: Boolean(result.wordsEstimated) };
}

export async function transcribe(providers: CallProviders, media: Media, language?: string): Promise<Transcript> {
  const result = await providers.get("transcription").transcribe({ audio: { data: media.data, mediaType: media.mediaType }, ...(language && { language }) });
  return transcriptOf(result);
}

export interface VideoRow {
  video_id: string;
  video_format: string | null;
  video_lang: string | null;
  composition: unknown;
  video_captions: unknown;
  blocks: unknown;
  groups: unknown;
  voice_settings_map: unknown;
}

const VIDEO_SELECT = { video_id: true, video_format: true, video_lang: true, composition: true, video_captions: true, blocks: true, groups: true, voice_settings_map: true };

/** The caller's video (404 / 403 otherwise), read outside a transaction. */
export async function readVideo(client: GraphQLContext["prisma"] | Tx, context: GraphQLContext, videoId: string): Promise<VideoRow> {
  return (await loadOwned(client, context, videos, videoId, { select: VIDEO_SELECT })) as unknown as VideoRow;
}

/** The caller's video locked for the rest of the transaction (writes to one video are serialized). */
export async function lockVideo(tx: Tx, context: GraphQLContext, videoId: string): Promise<VideoRow> {
  await tx.$queryRaw`SELECT video_id FROM videos WHERE video_id = ${videoId} FOR UPDATE`;
  return readVideo(tx, context, videoId);
}

/** The video's subtitle track when it is in the model's shape. */
export function storedCaptions(value: unknown): VideoCaptions | undefined {
  const parsed = videoCaptionsShape.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The media of a video when no URL is given: its track's source, or its first clip or audio layer. */
export function videoMedia(captions: VideoCaptions | undefined, composition: StoredComposition | undefined): string | undefined {
  if (captions?.source_url) return captions.source_url;
  const layer = composition?.layers.find((item) => item.type === "video" || item.type === "audio");
  return layer && "src" in layer ? layer.src : undefined;
}
