// Captions' groups: a `subtitles` layer's words as groups, whichever way it gives them (groups,
// timed words, SRT or VTT text). Used by subtitles.generate, faceless narration and the renderer.
//
// Subtitle groups from timed words: consecutive words, at most `words_per_group` each, a group
// also closing at a pause (a gap of PAUSE_SECONDS or more) or after a sentence's last word, so a
// group never spans silence. A group runs from its first word's start to its last word's end;
// each follows the transcription's own timestamps, nothing is estimated.
//
// Emphasis (enable_emphasis): in each group at most one word is marked — a number, or else the
// longest word of 5 letters or more that is not a common short word. Offline and deterministic:
// the same words always mark the same emphasis.
import type { TimedWord } from "./words.js";
import { wordsSpreadOver } from "./words.js";
import type { SubtitleGroup } from "./text-layers.js";

export const DEFAULT_WORDS_PER_GROUP = 3;
const PAUSE_SECONDS = 0.6;

const COMMON = new Set([
  "about", "after", "again", "because", "before", "being", "could", "every", "other", "their", "there", "these",
  "those", "through", "under", "where", "which", "while", "would", "should", "really", "think", "thing", "things",
]);

function letters(word: string): string {
  return word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}

function emphasised(words: readonly TimedWord[]): number | undefined {
  const numeric = words.findIndex((word) => /\p{N}/u.test(word.word));
  if (numeric >= 0) return numeric;
  let best: number | undefined;
  words.forEach((word, index) => {
    const plain = letters(word.word);
    if (plain.length < 5 || COMMON.has(plain)) return;
    if (best === undefined || plain.length > letters(words[best]!.word).length) best = index;
  });
  return best;
}

export function groupWords(words: readonly TimedWord[], wordsPerGroup: number, emphasis: boolean): SubtitleGroup[] {
  const groups: TimedWord[][] = [];
  let current: TimedWord[] = [];
  for (const word of words) {
    const last = current.at(-1);
    if (last && (current.length >= wordsPerGroup || word.start - last.end >= PAUSE_SECONDS || /[.!?]$/.test(last.word))) {
      groups.push(current);
      current = [];
    }
    current.push(word);
  }
  if (current.length > 0) groups.push(current);
  return groups.map((members) => {
    const marked = emphasis ? emphasised(members) : undefined;
    const start = members[0]!.start;
    const end = Math.max(members.at(-1)!.end, start + 0.01);
    return { start, end, words: members.map((word, index) => ({ word: word.word, start: word.start, end: Math.max(word.end, word.start), emphasis: index === marked })) };
  });
}

/** Groups cut to a composition of `duration` seconds: later groups dropped, the last one shortened. */
export function fitGroups(groups: readonly SubtitleGroup[], duration: number): SubtitleGroup[] {
  return groups
    .filter((group) => group.start < duration)
    .map((group) => ({ ...group, end: Math.min(group.end, duration), words: group.words.filter((word) => word.start < duration) }))
    .filter((group) => group.end > group.start && group.words.length > 0);
}

/** Seconds of an SRT/VTT timestamp (`01:02:03,456`, `02:03.456`), or NaN. */
function cueSeconds(stamp: string): number {
  const match = /^(?:(\d+):)?(\d{1,2}):(\d{1,2})[.,](\d{1,3})$/.exec(stamp.trim());
  if (!match) return Number.NaN;
  const [, hours, minutes, secs, fraction] = match;
  return Number(hours ?? 0) * 3600 + Number(minutes) * 60 + Number(secs) + Number(fraction!.padEnd(3, "0")) / 1000;
}

/** The cues of SubRip or WebVTT text: time range and text (markup tags removed, lines joined). */
export function parseCues(text: string): { start: number; end: number; text: string }[] {
  const cues: { start: number; end: number; text: string }[] = [];
  for (const block of text.replace(/\r\n?/g, "\n").split(/\n{2,}/)) {
    const lines = block.split("\n");
    const timing = lines.findIndex((line) => line.includes("-->"));
    if (timing < 0) continue;
    const [from, to] = lines[timing]!.split("-->");
    const start = cueSeconds(from ?? "");
    const end = cueSeconds((to ?? "").trim().split(/\s+/)[0] ?? "");
    const body = lines.slice(timing + 1).join(" ").replace(/<[^>]*>/g, "").replace(/\{\\[^}]*\}/g, "").replace(/\s+/g, " ").trim();
    if (Number.isFinite(start) && Number.isFinite(end) && end > start && body) cues.push({ start, end, text: body });
  }
  return cues;
}

/** The groups a subtitles layer draws, from its groups, words, srt or vtt. */
export function captionGroups(layer: { groups?: SubtitleGroup[]; words?: TimedWord[]; srt?: string; vtt?: string; words_per_group: number }): SubtitleGroup[] {
  if (layer.groups) return layer.groups;
  if (layer.words) return groupWords(layer.words, layer.words_per_group, false);
  const cues = parseCues(layer.srt ?? layer.vtt ?? "");
  return cues.flatMap((cue) => {
    const words = wordsSpreadOver(cue.text, cue.start, cue.end);
    return words.length > 0 ? [{ start: cue.start, end: cue.end, words }] : [];
  });
}
