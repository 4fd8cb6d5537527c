// timeline.whisper_analyze (catalog 4.2): word-level transcription and timing of an audio file.
// The file is fetched through the URL guard (at most 25 MB, audio or video) and transcribed by the
// transcription provider with word timestamps. Writes nothing; 3 credits a call. A test key gets a
// quote (nothing fetched or called).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { url } from "../../actions/catalog/define.js";
import { timedWord } from "../../video-model/index.js";
import { fetchMedia, transcribe } from "../../subtitles/index.js";

export default defineAction({
  name: "timeline.whisper_analyze",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({ audio_url: url() }),
  price: { credits: 3, per: "call" },
  weight: 5,
  purpose: "word-level transcription and timing of an audio file",
  mode: "model",
  uses: ["transcription"],
  output: z.object({
    object: z.literal("transcription"),
    audio_url: z.string(),
    duration_seconds: z.number().describe("Length of the file, measured with ffprobe."),
    language: z.string().nullable(),
    text: z.string(),
    words: z.array(timedWord).describe("Every word with its start and end, seconds from the start of the file."),
    words_estimated: z.boolean().describe("The provider gave segment times only; word times were spread over each segment."),
  }),
  async example(setup) {
    return { audio_url: (await setup.audio!()).url };
  },
  async run({ graphql, providers }, input) {
    const media = await fetchMedia(graphql.services.outbound, input.audio_url, "audio_url");
    const transcript = await transcribe(providers, media);
    return {
      object: "transcription" as const,
      audio_url: input.audio_url,
      duration_seconds: media.durationSeconds!,
      language: transcript.language,
      text: transcript.text,
      words: transcript.words,
      words_estimated: transcript.words_estimated,
    };
  },
});
