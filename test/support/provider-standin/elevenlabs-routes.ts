// ElevenLabs speech with timestamps (POST /elevenlabs/v1/text-to-speech/{voice}/with-timestamps):
// MP3 or raw PCM as base64, with a per-character alignment at a fixed pace.
import type { RouteDefinition } from "./protocol.js";

/** Seconds each character of ElevenLabs speech takes in the stand-in's alignment. */
export const ELEVENLABS_SECONDS_PER_CHARACTER = 0.06;
const PCM_RATE = 44_100;

/** Raw 16-bit mono PCM of a tone (what ElevenLabs' pcm_44100 returns). */
function pcmTone(seconds: number): Buffer {
  const samples = Math.max(1, Math.round(seconds * PCM_RATE));
  const pcm = Buffer.alloc(samples * 2);
  for (let index = 0; index < samples; index++) pcm.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * index) / PCM_RATE) * 8000), index * 2);
  return pcm;
}

export const elevenLabsRoutes: RouteDefinition[] = [
  {
    route: "elevenlabs.speech",
    method: "POST",
    pattern: /^\/elevenlabs\/v1\/text-to-speech\/([^/]+)\/with-timestamps$/,
    async handler(request, context, match) {
      const body = request.json() as { text?: string; model_id?: string; voice_settings?: { speed?: number }; language_code?: string } | undefined;
      if (!context.call.credential) return { status: 401, body: { detail: { status: "invalid_api_key", message: "Invalid API key" } } };
      if (!body?.text) return { status: 400, body: { detail: { status: "invalid_request", message: "text is required" } } };
      const format = request.query.get("output_format") ?? "mp3_44100_128";
      context.call.model = body.model_id;
      context.call.summary = { voice: decodeURIComponent(match[1]!), characters: body.text.length, output_format: format, speed: body.voice_settings?.speed, language_code: body.language_code };
      const characters = [...body.text];
      const seconds = characters.length * ELEVENLABS_SECONDS_PER_CHARACTER;
      let audio: Buffer;
      if (format.startsWith("pcm_")) audio = pcmTone(seconds);
      else if (format.startsWith("mp3_")) audio = await context.media.bytes(await context.media.audio(seconds, "mp3", 44_100));
      else return { status: 400, body: { detail: { status: "invalid_output_format", message: `unsupported ${format}` } } };
      const starts = characters.map((_, index) => Math.round(index * ELEVENLABS_SECONDS_PER_CHARACTER * 1000) / 1000);
      const ends = characters.map((_, index) => Math.round((index + 1) * ELEVENLABS_SECONDS_PER_CHARACTER * 1000) / 1000);
      const alignment = { characters, character_start_times_seconds: starts, character_end_times_seconds: ends };
      return { status: 200, body: { audio_base64: audio.toString("base64"), alignment, normalized_alignment: alignment } };
    },
  },
];
