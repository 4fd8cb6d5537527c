// The thresholds and word rules scripts.report and scripts.retention share (docs/scripts.md,
// "Report" and "Retention"): one place, so the documentation and both analyses agree.

/** Words of a paragraph's opening, compared for repeated openings. */
export const OPENING_WORDS = 2;
/** An opening paragraph longer than this is slow to reach its point. */
export const HOOK_MAX_MS = 15_000;
/** A paragraph longer than this is a long stretch without a change. */
export const LONG_PARAGRAPH_MS = 30_000;
/** A sentence longer than this is hard to follow by ear. */
export const LONG_SENTENCE_WORDS = 30;
/** This many numbers in one paragraph are more than a listener keeps. */
export const DENSE_NUMBERS = 4;
/** Body paragraphs in a row running longer than this have no change of pace. */
export const SAME_PACE_MS = 60_000;
/** A call to action that starts before this share of the runtime asks the viewer to leave early. */
export const CTA_LATE_SHARE = 0.8;
/** Hook and intro together taking more than this share of the runtime delay the substance. */
export const INTRO_MAX_SHARE = 0.25;
/** A runtime within this share of the target is on target. */
export const RUNTIME_TOLERANCE = 0.1;

/** Phrases that tell a viewer the video is ending (lower case, matched as whole words). */
export const CLOSING_PHRASES = ["in conclusion", "to conclude", "to sum up", "to wrap up", "wrapping up", "that's all", "that's it for", "thanks for watching", "thank you for watching", "see you next time", "until next time"];

/** Spoken words of a text, lower case, without punctuation. */
export function spokenWords(text: string): string[] {
  return [...text.toLowerCase().matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu)].map((match) => match[0].replace(/’/g, "'"));
}

/** A paragraph's opening: its first OPENING_WORDS words, lower case, without punctuation. */
export function openingOf(text: string): string {
  return spokenWords(text).slice(0, OPENING_WORDS).join(" ");
}

/** Sentences of a text: split after ., ! or ? followed by white space. */
export function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.!?…])\s+/u).map((sentence) => sentence.trim()).filter(Boolean);
}

/** Numbers written in digits (1,200 and 3.5 count once). */
export function numbersIn(text: string): number {
  return [...text.matchAll(/(?<![\p{L}\p{N}])\d+(?:[.,:]\d+)*/gu)].length;
}

/** The closing phrases a text holds. */
export function closingPhrasesIn(text: string): string[] {
  const words = ` ${spokenWords(text).join(" ")} `;
  return CLOSING_PHRASES.filter((phrase) => words.includes(` ${phrase} `));
}

export const ROLES = ["hook", "intro", "body", "transition", "example", "punchline", "cta", "outro"] as const;
