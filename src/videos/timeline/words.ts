// A word and when it is spoken, in seconds: the unit transcription, alignment and subtitles share.
import { z } from "zod";

export const timedWord = z.strictObject({
  word: z.string().min(1).max(200),
  start: z.number().min(0),
  end: z.number().min(0),
});
export type TimedWord = z.output<typeof timedWord>;
