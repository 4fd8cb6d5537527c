// subtitles.generate (catalog 4.2): transcribes a media URL with word timestamps, groups the words
// (`words_per_group`), marks words to emphasise, and writes the track (`video_captions`) and the
// `subtitles` layer of the composition onto the video; renders.create then burns them in. Used
// between videos.create and renders.create (docs/timeline.md, "Subtitles").
//
// A synchronous model call: the runner holds 3 credits, the media is fetched (URL guard) and
// transcribed outside any transaction, then one transaction locks the video, re-reads its
// composition (edits made meanwhile are kept) and writes both fields through the videos resource's
// own validation (a `video.updated` event). `restyle_only` regroups and restyles the stored track
// without fetching or transcribing: no provider call, and the hold is given back (0 credits).
// A test key gets a quote (nothing fetched, called, held or written).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, integer, label, url, videoFormat } from "../../actions/catalog/define.js";
import { updateRecordIn } from "../../resources/service.js";
import { validationFailed } from "../../validation/issues.js";
import { videos, subtitleGroup, subtitleStyle, type VideoCaptions } from "../../video-model/index.js";
import { storedComposition, withSubtitles, type SubtitleSource } from "../apply.js";
import { DEFAULT_WORDS_PER_GROUP, groupWords } from "../../video-model/index.js";
import { fetchMedia } from "../media.js";
import { DEFAULT_STYLE_PRESET, presetStyle } from "../styles.js";
import { lockVideo, readVideo, storedCaptions, transcribe, videoMedia, type Transcript } from "../transcribe.js";

type Format = "portrait" | "landscape" | "square";
const formatOf = (value: string | null | undefined): Format => (value === "portrait" || value === "square" ? value : "landscape");

export default defineAction({
  name: "subtitles.generate",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({
    video_id: id(),
    media_url: url().optional(),
    style_preset: label().optional(),
    words_per_group: integer(1, 20).optional(),
    enable_emphasis: flag().optional(),
    enable_diarization: flag().optional(),
    video_format: videoFormat().optional(),
    restyle_only: flag().optional(),
  }),
  price: { credits: 3, per: "call", note: "restyle_only transcribes nothing and is given back (0 credits)" },
  weight: 5,
  purpose:
    "transcribe a media URL, mark words to emphasise, write the subtitle track and layer onto the video; used between `videos.create` and `renders.create`",
  mode: "model",
  uses: ["transcription"],
  output: z.object({
    object: z.literal("subtitles"),
    video_id: z.string(),
    restyled: z.boolean().describe("True for restyle_only: the stored words were regrouped and restyled, nothing transcribed."),
    source_url: z.string().nullable().describe("The media transcribed."),
    language: z.string().nullable(),
    text: z.string(),
    word_count: z.number().int(),
    words_estimated: z.boolean().describe("The provider gave segment times only; word times were spread over each segment."),
    words_per_group: z.number().int(),
    style_preset: z.string(),
    style: subtitleStyle,
    groups: z.array(subtitleGroup).describe("The groups written (cut to the composition's duration)."),
    layer_index: z.number().int().describe("Index of the subtitles layer in the video's composition."),
    composition_duration: z.number(),
    diarization: z.literal(false).describe("Speaker labels: the transcription provider gives none; enable_diarization is accepted and has no effect."),
  }),
  async example(setup) {
    const audio = await setup.audio!();
    const video = await setup.create("videos", { video_name: "Example", video_format: "portrait" });
    return { video_id: video.video_id, media_url: audio.url, words_per_group: 2 };
  },
  async check({ graphql }, input) {
    const video = await readVideo(graphql.prisma, graphql, input.video_id);
    if (input.style_preset !== undefined) presetStyle(input.style_preset, "landscape");
    if (input.restyle_only && !storedCaptions(video.video_captions)?.words.length) {
      throw validationFailed([{ path: "restyle_only", message: "The video has no subtitle track to restyle: call subtitles.generate without restyle_only first.", type: "any.invalid" }]);
    }
    if (!input.restyle_only && !input.media_url && !videoMedia(storedCaptions(video.video_captions), storedComposition(video.composition))) {
      throw validationFailed([{ path: "media_url", message: "This field is required: the video has no media to transcribe (no subtitle source, clip or audio layer).", type: "any.required" }]);
    }
  },
  async run({ db, graphql, providers, ran, commit }, input) {
    const video = await readVideo(db, graphql, input.video_id);
    const previous = storedCaptions(video.video_captions);
    let transcript: Transcript;
    let source: SubtitleSource | undefined;
    if (input.restyle_only) {
      transcript = { text: previous!.text ?? previous!.words.map((word) => word.word).join(" "), language: previous!.language ?? null, words: previous!.words, words_estimated: false };
    } else {
      const url = input.media_url ?? videoMedia(previous, storedComposition(video.composition))!;
      const media = await fetchMedia(graphql.services.outbound, url, input.media_url ? "media_url" : "video_id");
      source = { url, durationSeconds: media.durationSeconds!, hasPicture: media.hasPicture };
      transcript = await transcribe(providers, media, video.video_lang ?? undefined);
    }
    const format = formatOf(input.video_format ?? video.video_format);
    const preset = input.style_preset ?? previous?.style_preset ?? DEFAULT_STYLE_PRESET;
    const style = presetStyle(preset, format);
    const wordsPerGroup = input.words_per_group ?? previous?.words_per_group ?? DEFAULT_WORDS_PER_GROUP;
    const groups = groupWords(transcript.words, wordsPerGroup, input.enable_emphasis ?? true);
    if (input.restyle_only) ran(0);

    return commit(async (tx) => {
      const current = await lockVideo(tx, graphql, input.video_id);
      const { composition, layerIndex } = withSubtitles(storedComposition(current.composition), source, groups, style);
      const captions: VideoCaptions = {
        language: transcript.language,
        source_url: source?.url ?? previous?.source_url ?? null,
        text: transcript.text,
        words: transcript.words,
        words_per_group: wordsPerGroup,
        style_preset: preset,
        style,
        groups,
      };
      await updateRecordIn(tx, graphql, videos, input.video_id, { composition, video_captions: captions }, { select: { video_id: true } });
      const layer = composition.layers[layerIndex] as { groups: z.output<typeof subtitleGroup>[] };
      return {
        object: "subtitles" as const,
        video_id: input.video_id,
        restyled: Boolean(input.restyle_only),
        source_url: captions.source_url ?? null,
        language: transcript.language,
        text: transcript.text,
        word_count: transcript.words.length,
        words_estimated: transcript.words_estimated,
        words_per_group: wordsPerGroup,
        style_preset: preset,
        style,
        groups: layer.groups,
        layer_index: layerIndex,
        composition_duration: composition.duration,
        diarization: false as const,
      };
    });
  },
});
