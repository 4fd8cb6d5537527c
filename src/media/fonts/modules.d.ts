// Types of the two text libraries that ship none: linebreak (UAX #14 line breaking) and bidi-js
// (UAX #9 bidirectional levels). Only what src/media/fonts/ uses.
declare module "linebreak" {
  interface Break {
    /** Index in the string where a line may start. */
    position: number;
    /** A mandatory break (a newline). */
    required: boolean;
  }
  export default class LineBreaker {
    constructor(text: string);
    nextBreak(): Break | null;
  }
}

declare module "bidi-js" {
  interface EmbeddingLevels {
    levels: Uint8Array;
    paragraphs: { start: number; end: number; level: number }[];
  }
  interface Bidi {
    getEmbeddingLevels(text: string, direction?: "ltr" | "rtl" | "auto"): EmbeddingLevels;
  }
  export default function bidiFactory(): Bidi;
}
