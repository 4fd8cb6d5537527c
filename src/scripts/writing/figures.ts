// The check scripts.write_from_link runs on what the model wrote, after it answered
// (docs/scripts.md, "Figures"): numbers, prices, dates and versions come only from the pages read.
//
// A **figure** is a run of digits, with the separators `.` `,` `:` `/` `-` allowed between two
// digits: `3`, `1,200`, `3.5`, `$40` (the figure is `40`), `45%` (`45`), `v2.1` (`2.1`), `9:30`,
// `2024-05-01`. Numbers written in words ("three") are not figures. Two figures are the same when
// they are equal once thousands commas are dropped and each part between `-` `/` `:` loses its
// leading zeros; a figure of the pages also backs each of those parts (`2024-05-01` backs `2024`,
// `5` and `1`). A sentence of the written text holding a figure no page (nor the author's own
// `answers`) holds is taken out of the text and returned in `unverified`, as is, when first-person
// claims are not allowed, a sentence in the first person singular (English: I, I'm, I've, I'd,
// I'll, me, my, mine, myself).

const FIGURE = /\d(?:[.,:/-]?\d)*/gu;
const FIRST_PERSON = /(?<![\p{L}\p{N}'’])(?:I|I['’](?:m|ve|d|ll)|[Mm]e|[Mm]y|[Mm]ine|[Mm]yself)(?![\p{L}\p{N}'’])/u;

function normalize(figure: string): string {
  return figure
    .replace(/,/gu, "")
    .split(/([-/:])/u)
    .map((part) => (/^\d+$/u.test(part) ? part.replace(/^0+(?=\d)/u, "") : part))
    .join("");
}

/** The figures of a text, as written. */
export function figuresIn(text: string): string[] {
  return text.match(FIGURE) ?? [];
}

/** Every figure the sources back: each figure, normalized, and its parts between `-` `/` `:`. */
export function backedFigures(sources: readonly string[]): Set<string> {
  const backed = new Set<string>();
  for (const source of sources) {
    for (const figure of figuresIn(source)) {
      const normal = normalize(figure);
      backed.add(normal);
      for (const part of normal.split(/[-/:]/u)) if (part) backed.add(normalize(part));
    }
  }
  return backed;
}

export interface Unverified {
  statement: string;
  reason: "figure_not_in_sources" | "first_person" | "model";
  figures: string[];
}

/** Sentences: split after . ! ? … followed by white space. */
function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.!?…])\s+/u).filter((sentence) => sentence.trim() !== "");
}

/**
 * A paragraph's words with every sentence the check refuses taken out, and those sentences.
 * Blank lines between sentences are not kept: a checked paragraph is one block.
 */
export function checkParagraph(text: string, backed: ReadonlySet<string>, options: { firstPerson: boolean }): { text: string; unverified: Unverified[] } {
  const kept: string[] = [];
  const unverified: Unverified[] = [];
  for (const sentence of sentencesOf(text)) {
    const missing = figuresIn(sentence).filter((figure) => !backed.has(normalize(figure)));
    if (missing.length) unverified.push({ statement: sentence.trim(), reason: "figure_not_in_sources", figures: missing });
    else if (!options.firstPerson && FIRST_PERSON.test(sentence)) unverified.push({ statement: sentence.trim(), reason: "first_person", figures: [] });
    else kept.push(sentence.trim());
  }
  return { text: kept.join(" "), unverified };
}
