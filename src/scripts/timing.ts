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

/** A position on the running order as `HH:MM:SS.mmm` (the form WebVTT uses). */
export function timecode(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  const hours = Math.floor(whole / 3_600_000);
  const minutes = Math.floor((whole % 3_600_000) / 60_000);
  const seconds = Math.floor((whole % 60_000) / 1000);
  const millis = whole % 1000;
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  return `${pad(hours)}:${pad(minutes)}:${pad(seconds)}.${pad(millis, 3)}`;
}

/** What the running order needs of a paragraph. */
export interface TimedInput {
  paragraph_id: string;
  text: string;
  playback_rate: number | null;
}

/** A recorded take as timing reads it (src/scripts/recordings.ts). */
export interface RecordingTiming {
  duration_ms: number;
  /** The words the take was recorded from: a take of other words is stale. */
  text: string;
}

export interface TimedParagraph {
  paragraph_id: string;
  start_ms: number;
  duration_ms: number;
  end_ms: number;
  /** `recording`: the chosen take's length; `estimate`: the words at the language's rate. */
  source: "recording" | "estimate";
  /** The chosen take was recorded from other words than the paragraph has now. */
  stale: boolean;
}

/**
 * The running order: paragraphs back to back from 0, each lasting its chosen take's length where
 * one exists (divided by the paragraph's playback rate, as the player plays it) and its estimate
 * otherwise. A stale take still times its paragraph: it is what plays until it is voiced again.
 */
export function timeline(paragraphs: readonly TimedInput[], language: string | null | undefined, recordings: ReadonlyMap<string, RecordingTiming>): TimedParagraph[] {
  let clock = 0;
  return paragraphs.map((paragraph) => {
    const recording = recordings.get(paragraph.paragraph_id);
    const duration = recording ? Math.round(recording.duration_ms / (paragraph.playback_rate ?? 1)) : estimatedMs(paragraph.text, language, paragraph.playback_rate);
    const timed: TimedParagraph = {
      paragraph_id: paragraph.paragraph_id,
      start_ms: clock,
      duration_ms: duration,
      end_ms: clock + duration,
      source: recording ? "recording" : "estimate",
      stale: recording ? recording.text !== paragraph.text : false,
    };
    clock += duration;
    return timed;
  });
}
