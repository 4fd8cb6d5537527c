// timeline.analyze_subtitles (catalog 4.2): builds subtitle groups from a transcription of
// `audio_url` (or, without it, of the video's media: its track's source, else its first clip or
// audio layer) and stores them as the video's subtitle track (`video_captions`), keeping the
// track's style and words_per_group when it has them. Unlike subtitles.generate it leaves the
// composition alone: the editor shows the groups, subtitles.generate (restyle_only) lays them out.
// 3 credits a call; a test key gets a quote.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, url } from "../../actions/catalog/define.js";
import { updateRecordIn } from "../../resources/service.js";
import { validationFailed } from "../../validation/issues.js";
import { videos, subtitleGroup, type VideoCaptions } from "../../video-model/index.js";
import { storedComposition, DEFAULT_WORDS_PER_GROUP, groupWords, fetchMedia, lockVideo, readVideo, storedCaptions, transcribe, videoMedia } from "../../subtitles/index.js";

export default defineAction({
  name: "timeline.analyze_subtitles",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({
    video_id: id(),
    audio_url: url().optional(),
  }),
  price: { credits: 3, per: "call" },
  weight: 5,
  purpose: "build subtitle groups from a transcription",
  mode: "model",
  uses: ["transcription"],
  output: z.object({
    object: z.literal("subtitle_analysis"),
    video_id: z.string(),
    source_url: z.string(),
    language: z.string().nullable(),
    text: z.string(),
    word_count: z.number().int(),
    words_per_group: z.number().int(),
    groups: z.array(subtitleGroup),
  }),
  async example(setup) {
    const video = await setup.create("videos", { video_name: "Example" });
    return { video_id: video.video_id, audio_url: (await setup.audio!()).url };
  },
  async check({ graphql }, input) {
    const video = await readVideo(graphql.prisma, graphql, input.video_id);
    if (!input.audio_url && !videoMedia(storedCaptions(video.video_captions), storedComposition(video.composition))) {
      throw validationFailed([{ path: "audio_url", message: "This field is required: the video has no media to transcribe (no subtitle source, clip or audio layer).", type: "any.required" }]);
    }
  },
  async run({ db, graphql, providers, commit }, input) {
    const video = await readVideo(db, graphql, input.video_id);
    const previous = storedCaptions(video.video_captions);
    const source = input.audio_url ?? videoMedia(previous, storedComposition(video.composition))!;
    const media = await fetchMedia(graphql.services.outbound, source, input.audio_url ? "audio_url" : "video_id");
    const transcript = await transcribe(providers, media, video.video_lang ?? undefined);
    const wordsPerGroup = previous?.words_per_group ?? DEFAULT_WORDS_PER_GROUP;
    const groups = groupWords(transcript.words, wordsPerGroup, true);
    return commit(async (tx) => {
      await lockVideo(tx, graphql, input.video_id);
      const captions: VideoCaptions = { ...previous, language: transcript.language, source_url: source, text: transcript.text, words: transcript.words, words_per_group: wordsPerGroup, groups };
      await updateRecordIn(tx, graphql, videos, input.video_id, { video_captions: captions }, { select: { video_id: true } });
      return { object: "subtitle_analysis" as const, video_id: input.video_id, source_url: source, language: transcript.language, text: transcript.text, word_count: transcript.words.length, words_per_group: wordsPerGroup, groups };
    });
  },
});
