// How long a script runs, measured from recordings where they exist (scripts part 2) and estimated
// from its words until then (docs/scripts.md, "Timing"): a language's speaking rate in words per
// minute, or characters per minute for languages written without spaces. Deterministic.
const WORDS_PER_MINUTE: Record<string, number> = { en: 150, fr: 155, es: 160, it: 155, pt: 155, de: 135, nl: 145, sv: 145, pl: 135, ru: 135, tr: 135 };
const CHARACTERS_PER_MINUTE: Record<string, number> = { ja: 350, zh: 260, ko: 280, th: 450 };
const DEFAULT_WORDS_PER_MINUTE = 150;

/** The primary language subtag (`en` of `en-US`, `fr` of `French`'s code), lower case. */
export function languageCode(language: string | null | undefined): string {
  const code = (language ?? "en").trim().toLowerCase();
  const named: Record<string, string> = { english: "en", french: "fr", spanish: "es", german: "de", italian: "it", portuguese: "pt", japanese: "ja", chinese: "zh", korean: "ko", dutch: "nl" };
  return named[code] ?? code.split(/[-_]/)[0] ?? "en";
}

/** Estimated spoken length of a text in milliseconds, at the language's rate and a playback rate. */
export function estimatedMs(text: string, language: string | null | undefined, playbackRate: number | null = null): number {
  const code = languageCode(language);
  const perMinute = CHARACTERS_PER_MINUTE[code];
  const minutes = perMinute ? text.replace(/\s+/gu, "").length / perMinute : (text.trim() === "" ? 0 : text.trim().split(/\s+/u).length) / (WORDS_PER_MINUTE[code] ?? DEFAULT_WORDS_PER_MINUTE);
  return Math.round((minutes * 60_000) / (playbackRate ?? 1));
}

/** The rate a runtime estimate used, for the answer to say how it was made. */
export function rateOf(language: string | null | undefined): { unit: "words" | "characters"; per_minute: number } {
  const code = languageCode(language);
  const characters = CHARACTERS_PER_MINUTE[code];
  return characters ? { unit: "characters", per_minute: characters } : { unit: "words", per_minute: WORDS_PER_MINUTE[code] ?? DEFAULT_WORDS_PER_MINUTE };
}
