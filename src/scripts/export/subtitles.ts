// Subtitles of a script (scripts.export srt and vtt; docs/scripts.md, "Export"). Each paragraph's
// words are cut into cues that fit two lines of 42 characters, sentence by sentence (short
// sentences share a cue, long ones are cut between words), and the paragraph's time span (its
// chosen take where one exists, its estimate otherwise) is shared out by the cues' lengths. A word
// longer than a line (an address) stands on a line of its own.
import { sentencesOf } from "../analysis/rules.js";
import type { ScriptView } from "../analysis/view.js";

/** Characters on one subtitle line, and lines in one cue (a broadcast norm). */
export const LINE_CHARACTERS = 42;
export const CUE_LINES = 2;

export interface Cue {
  start_ms: number;
  end_ms: number;
  lines: string[];
  speaker: string;
}

/** Words of a text greedily packed into pieces of at most `width` characters (a longer word alone). */
export function wrapWords(text: string, width: number): string[] {
  const pieces: string[] = [];
  let current = "";
  for (const word of text.split(/\s+/u).filter(Boolean)) {
    if (current && current.length + 1 + word.length > width) {
      pieces.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current) pieces.push(current);
  return pieces;
}

/** A cue's text on lines: one line when it fits, else broken at the space that best balances two (a cue always fits two). */
export function cueLines(text: string): string[] {
  if (text.length <= LINE_CHARACTERS) return [text];
  let best: [string, string] | undefined;
  for (let index = text.indexOf(" "); index !== -1; index = text.indexOf(" ", index + 1)) {
    const pair: [string, string] = [text.slice(0, index), text.slice(index + 1)];
    if (pair[0].length > LINE_CHARACTERS || pair[1].length > LINE_CHARACTERS) continue;
    if (!best || Math.abs(pair[0].length - pair[1].length) < Math.abs(best[0].length - best[1].length)) best = pair;
  }
  return best ?? wrapWords(text, LINE_CHARACTERS);
}

/** Does a text fit one cue: at most two lines of LINE_CHARACTERS when wrapped between words? */
function fitsCue(text: string): boolean {
  return wrapWords(text, LINE_CHARACTERS).length <= CUE_LINES;
}

/**
 * The cue texts of one paragraph: sentences packed while they fit one cue; a sentence too long for
 * one is cut between words into as few cues as fit.
 */
export function cueTexts(text: string): string[] {
  const cues: string[] = [];
  let current = "";
  const add = (piece: string) => {
    if (current && fitsCue(`${current} ${piece}`)) current = `${current} ${piece}`;
    else {
      if (current) cues.push(current);
      current = piece;
    }
  };
  for (const sentence of sentencesOf(text.replace(/\s+/gu, " "))) {
    if (fitsCue(sentence)) add(sentence);
    else {
      for (const word of sentence.split(" ")) {
        if (current && !fitsCue(`${current} ${word}`)) {
          cues.push(current);
          current = word;
        } else current = current ? `${current} ${word}` : word;
      }
    }
  }
  if (current) cues.push(current);
  return cues;
}

/** Every cue of the script, in order; a paragraph's cues share its span by their lengths. */
export function cuesOf(view: ScriptView): Cue[] {
  const cues: Cue[] = [];
  for (const paragraph of view.paragraphs) {
    const texts = cueTexts(paragraph.row.text);
    const { start_ms: start, duration_ms: duration } = paragraph.timing;
    const total = texts.reduce((sum, text) => sum + text.length, 0);
    let done = 0;
    for (const [index, text] of texts.entries()) {
      const from = start + Math.round((duration * done) / total);
      done += text.length;
      const to = index === texts.length - 1 ? start + duration : start + Math.round((duration * done) / total);
      cues.push({ start_ms: from, end_ms: to, lines: cueLines(text), speaker: paragraph.speaker_name });
    }
  }
  return cues;
}

function clock(ms: number, separator: "," | "."): string {
  const whole = Math.max(0, Math.round(ms));
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  return `${pad(Math.floor(whole / 3_600_000))}:${pad(Math.floor((whole % 3_600_000) / 60_000))}:${pad(Math.floor((whole % 60_000) / 1000))}${separator}${pad(whole % 1000, 3)}`;
}

/** SubRip: numbered cues, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, a blank line after each. */
export function toSrt(view: ScriptView): string {
  return cuesOf(view)
    .map((cue, index) => `${index + 1}\n${clock(cue.start_ms, ",")} --> ${clock(cue.end_ms, ",")}\n${cue.lines.join("\n")}\n`)
    .join("\n");
}

/** Cue text of WebVTT: &, < and > escaped (so no "-->" and no tag can appear in the words). */
function vttText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** WebVTT: the header, then cues; each names its speaker (`<v Name>`) when more than one speaks. */
export function toVtt(view: ScriptView): string {
  const voices = view.speakers_in_use > 1;
  const cues = cuesOf(view).map((cue) => {
    const lines = cue.lines.map(vttText);
    if (voices) lines[0] = `<v ${vttText(cue.speaker)}>${lines[0]}`;
    return `${clock(cue.start_ms, ".")} --> ${clock(cue.end_ms, ".")}\n${lines.join("\n")}\n`;
  });
  return ["WEBVTT\n", ...cues].join("\n");
}
