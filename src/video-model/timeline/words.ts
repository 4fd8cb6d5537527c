// A word and when it is spoken, in seconds: the unit transcription, alignment and subtitles share.
import { z } from "zod";

export const timedWord = z.strictObject({
  word: z.string().min(1).max(200),
  start: z.number().min(0),
  end: z.number().min(0),
});
export type TimedWord = z.output<typeof timedWord>;

const toMs = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * The words of a line spread evenly between `start` and `end`, for text whose words have no times
 * of their own (a translated line, a site's caption cue).
 */
export function wordsSpreadOver(text: string, start: number, end: number): (TimedWord & { emphasis: boolean })[] {
  const words = text.split(/\s+/).filter(Boolean);
  const step = words.length > 0 ? (end - start) / words.length : 0;
  return words.map((word, index) => ({ word, start: toMs(start + index * step), end: toMs(start + (index + 1) * step), emphasis: false }));
}
