// ElevenLabs speech with timestamps (POST /v1/text-to-speech/{voice}/with-timestamps): the audio
// comes back base64 with a per-character alignment, which is folded into word timings. MP3 is
// asked for as mp3_44100_128; WAV as raw pcm_44100, wrapped in a WAV header here (ElevenLabs'
// own wav formats are not on every plan).
import { z } from "zod";
import { callMeta, fetchWithRetries, limitedCall } from "../call.js";
import { ProviderAnswerError } from "../errors.js";
import { mediaFacts, wavFromPcm } from "../media-info.js";
import type { ModelChoice } from "../../config/providers.js";
import { retryPolicyOf, targetOf, type ProviderRuntime } from "../runtime.js";
import type { SpeechProvider, WordTiming } from "../types.js";

/** A stock voice of every ElevenLabs account ("George"). */
export const ELEVENLABS_DEFAULT_VOICE = "JBFqnCBsd6RMkjVDRZzb";
const PCM_RATE = 44_100;

const alignmentSchema = z.object({
  characters: z.array(z.string()),
  character_start_times_seconds: z.array(z.number()),
  character_end_times_seconds: z.array(z.number()),
});

const answerSchema = z.object({
  audio_base64: z.string(),
  alignment: alignmentSchema.nullish(),
  normalized_alignment: alignmentSchema.nullish(),
});

/** Word timings from character timings: runs of non-space characters, timed from their first to last letter or digit. */
export function wordsFromAlignment(alignment: z.infer<typeof alignmentSchema>): WordTiming[] {
  const words: WordTiming[] = [];
  let run: { character: string; start: number; end: number }[] = [];
  const flush = () => {
    const first = run.findIndex((item) => /[\p{L}\p{N}]/u.test(item.character));
    const last = run.findLastIndex((item) => /[\p{L}\p{N}]/u.test(item.character));
    if (first >= 0) {
      words.push({ word: run.slice(first, last + 1).map((item) => item.character).join(""), start: run[first]!.start, end: run[last]!.end });
    }
    run = [];
  };
  alignment.characters.forEach((character, index) => {
    if (/\s/.test(character)) return flush();
    const start = alignment.character_start_times_seconds[index] ?? run.at(-1)?.end ?? 0;
    run.push({ character, start, end: alignment.character_end_times_seconds[index] ?? start });
  });
  flush();
  return words;
}

export function elevenLabsSpeech(choice: ModelChoice, runtime: ProviderRuntime): SpeechProvider {
  const settings = runtime.settings.elevenlabs;
  if (!settings) throw new Error("The elevenlabs adapter was built without ELEVENLABS_API_KEY (settings should have refused the model).");
  const target = targetOf(choice);
  const policy = retryPolicyOf(runtime.settings);
  return {
    async synthesize(request, options) {
      const format = request.format ?? "mp3";
      const voice = encodeURIComponent(request.voice ?? ELEVENLABS_DEFAULT_VOICE);
      const outputFormat = format === "wav" ? `pcm_${PCM_RATE}` : "mp3_44100_128";
      const body = {
        text: request.text,
        model_id: choice.model,
        ...(request.language && { language_code: request.language }),
        // ElevenLabs takes 0.7–1.2; a wider request is brought inside rather than refused.
        ...(request.speed !== undefined && { voice_settings: { speed: Math.min(1.2, Math.max(0.7, request.speed)) } }),
      };
      const { value, durationMs } = await limitedCall(target, runtime.settings.timeoutMs, options, async (signal) => {
        const response = await fetchWithRetries(`${settings.baseUrl}/v1/text-to-speech/${voice}/with-timestamps?output_format=${outputFormat}`, {
          method: "POST",
          headers: { "xi-api-key": settings.apiKey.reveal(), "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(body),
          signal,
        }, policy);
        const parsed = answerSchema.safeParse(await response.json().catch(() => undefined));
        if (!parsed.success) throw new ProviderAnswerError("its answer was not audio with timestamps");
        return parsed.data;
      });
      const raw = new Uint8Array(Buffer.from(value.audio_base64, "base64"));
      const data = format === "wav" ? wavFromPcm(raw, PCM_RATE) : raw;
      const mediaType = format === "wav" ? "audio/wav" : "audio/mpeg";
      const alignment = value.alignment ?? value.normalized_alignment;
      const words = alignment ? wordsFromAlignment(alignment) : undefined;
      const facts = await mediaFacts(data, mediaType, runtime.workDir);
      return {
        audio: { data, mediaType, ...facts },
        ...(words && { words }),
        meta: callMeta(target, { characters: request.text.length, ...(facts.durationSeconds !== undefined && { seconds: facts.durationSeconds }) }, durationMs),
      };
    },
  };
}
