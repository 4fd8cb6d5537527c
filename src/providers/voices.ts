// Voices a speech provider has built in, known without asking it (scripts.voices lists them beside
// the voices library). ElevenLabs accounts hold voices of their own, which only its API lists: here
// only the stock voice its adapter uses by default; an account's other voices enter through the
// voices library (`provider_voice_id`). Each is named `<provider>/<voice id>` as a voice_ref.
import { ELEVENLABS_DEFAULT_VOICE } from "./adapters/elevenlabs.js";

export interface BuiltInVoice {
  provider: string;
  /** The voice's id at its provider (what SpeechRequest.voice takes). */
  voice: string;
  name: string;
  /** A BCP 47 tag; null for a multilingual voice. */
  language: string | null;
  gender: string | null;
  description: string;
}

const openai = (voice: string, gender: string, description: string): BuiltInVoice => ({
  provider: "openai",
  voice,
  name: voice.charAt(0).toUpperCase() + voice.slice(1),
  language: null,
  gender,
  description: `OpenAI stock voice, multilingual: ${description}`,
});

const espeak = (voice: string, language: string, name: string): BuiltInVoice => ({
  provider: "local",
  voice,
  name: `eSpeak ${name}`,
  language,
  gender: null,
  description: `eSpeak NG on this server (robotic), ${name}`,
});

export const BUILT_IN_VOICES: readonly BuiltInVoice[] = [
  openai("alloy", "neutral", "balanced, even"),
  openai("ash", "male", "clear, direct"),
  openai("coral", "female", "warm, friendly"),
  openai("echo", "male", "calm, resonant"),
  openai("fable", "neutral", "expressive, storytelling"),
  openai("nova", "female", "bright, energetic"),
  openai("onyx", "male", "deep, authoritative"),
  openai("sage", "female", "soft, measured"),
  openai("shimmer", "female", "light, gentle"),
  { provider: "elevenlabs", voice: ELEVENLABS_DEFAULT_VOICE, name: "George", language: null, gender: "male", description: "ElevenLabs stock voice of every account, multilingual: warm, British" },
  espeak("en-us", "en-US", "English (US)"),
  espeak("en-gb", "en-GB", "English (UK)"),
  espeak("fr", "fr", "French"),
  espeak("de", "de", "German"),
  espeak("es", "es", "Spanish"),
  espeak("it", "it", "Italian"),
  espeak("pt", "pt", "Portuguese"),
  espeak("nl", "nl", "Dutch"),
];

/** The built-in voices of the given speech providers, in the order above. */
export function builtInVoices(providers: ReadonlySet<string>): BuiltInVoice[] {
  return BUILT_IN_VOICES.filter((voice) => providers.has(voice.provider));
}

/**
 * The deployment's default voice for a language (docs/scripts.md, "Default voice"), as a
 * voice_ref: the configured speech provider's own default when it is a remote one (its stock voice
 * speaks every language), else the espeak-ng voice of that language — its exact tag (`en-GB`), then
 * its primary language (`en` → `en-us`, the first listed). Null when nothing here speaks the
 * language (a script in Japanese on an offline deployment): such a script names its voice itself.
 */
export function defaultVoiceRef(speechProvider: string | undefined, language: string | null | undefined): string | null {
  const tag = (language ?? "en").trim().toLowerCase().replace(/_/g, "-");
  if (speechProvider && speechProvider !== "local") {
    const stock = BUILT_IN_VOICES.find((voice) => voice.provider === speechProvider);
    if (stock) return `${stock.provider}/${stock.voice}`;
  }
  const local = BUILT_IN_VOICES.filter((voice) => voice.provider === "local");
  const primary = tag.split("-")[0];
  const named: Record<string, string> = { english: "en", french: "fr", german: "de", spanish: "es", italian: "it", portuguese: "pt", dutch: "nl" };
  const code = named[tag] ?? primary;
  const found =
    local.find((voice) => voice.language?.toLowerCase() === tag) ??
    local.find((voice) => voice.language?.toLowerCase().split("-")[0] === code);
  return found ? `${found.provider}/${found.voice}` : null;
}
