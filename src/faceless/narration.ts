// Subtitle groups of narration that has no word timings (a faceless scene's text, a slide's
// caption): each piece's words spread evenly over its time, grouped as subtitles.generate groups
// transcribed words (src/video-model/timeline/caption-groups.ts).
import { DEFAULT_WORDS_PER_GROUP, groupWords } from "../subtitles/index.js";
import type { SubtitleGroup, TimedWord } from "../video-model/index.js";

/** The subtitles layer's limits (src/video-model/timeline/composition.ts). */
const MAX_GROUPS = 5_000;
const MAX_WORD_CHARACTERS = 200;

export interface Narration {
  text: string;
  /** Seconds from the start of the video. */
  start: number;
  end: number;
}

export function narrationGroups(pieces: readonly Narration[]): SubtitleGroup[] {
  const groups: SubtitleGroup[] = [];
  for (const piece of pieces) {
    const words = piece.text.split(/\s+/u).filter(Boolean).map((word) => word.slice(0, MAX_WORD_CHARACTERS));
    if (words.length === 0 || piece.end <= piece.start) continue;
    const step = (piece.end - piece.start) / words.length;
    const timed: TimedWord[] = words.map((word, index) => ({ word, start: piece.start + index * step, end: index + 1 === words.length ? piece.end : piece.start + (index + 1) * step }));
    groups.push(...groupWords(timed, DEFAULT_WORDS_PER_GROUP, false));
  }
  return groups.slice(0, MAX_GROUPS);
}
