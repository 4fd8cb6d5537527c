// scripts.speech_check's analysis (docs/scripts.md, "Speech check"): what the voice will be handed
// for one paragraph — its words after the workspace's `spoken` rules — and what in them a voice
// may read wrongly. Deterministic: the same words and rules always give the same flags.
//
// Detectors run in this order over the spoken text; what one claims is hidden from the ones after
// it (a URL's dots and digits are the URL's, "km" after a number is a unit, not an acronym):
//   url → abbreviation → acronym → digits → symbol → sibilant_run
// Every pattern starts only where a word starts and has no nested quantifiers, so a paragraph is
// scanned in linear time whatever it holds (20,000 characters of one token included).
import { applySpoken, type AppliedRule, type StyleRuleRow } from "../style-rules.js";

export const SPEECH_KINDS = ["url", "abbreviation", "acronym", "digits", "symbol", "sibilant_run"] as const;
export type SpeechKind = (typeof SPEECH_KINDS)[number];

export interface SpeechFlag {
  kind: SpeechKind;
  /** The text flagged, as the voice would get it. */
  text: string;
  /** Offsets in the spoken text (UTF-16 code units): [start, end). */
  start: number;
  end: number;
  /** How it is usually said, in English, when that is known (digits, symbols, abbreviations). */
  spoken_as: string | null;
  reason: string;
}

export interface SpeechCheck {
  spoken_text: string;
  rules_applied: AppliedRule[];
  flags: SpeechFlag[];
}

// --- what is looked for -------------------------------------------------------------------------

/** Addresses: e-mail, scheme or www. first, then bare domains on common top-level domains. */
const URL_PATTERNS = [
  /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu,
  /\b(?:https?:\/\/|www\.)[^\s<>"]+/giu,
  /(?<![\p{L}\p{N}@.-])(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|ai|app|co|tv|fm|gg|me|ly|xyz|info|edu|gov|uk|fr|de|es|it|nl|eu|ca|us)(?:\/[^\s<>"]*)?(?![\p{L}\p{N}])/giu,
];
/** Punctuation that ends a sentence after an address rather than belonging to it. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"»”’]+$/u;

/** Abbreviations written with a full stop, said as words. Lower-case ones match any case. */
const DOTTED_ABBREVIATIONS: Record<string, string> = {
  "e.g.": "for example",
  "i.e.": "that is",
  "etc.": "et cetera",
  "vs.": "versus",
  "approx.": "approximately",
  "cf.": "compare",
  "ca.": "circa",
  "incl.": "including",
  "dept.": "department",
  "a.m.": "a m",
  "p.m.": "p m",
  "Dr.": "Doctor",
  "Mr.": "Mister",
  "Mrs.": "Missus",
  "Ms.": "Miz",
  "Prof.": "Professor",
  "St.": "Saint, or Street",
  "No.": "number",
  "Jr.": "Junior",
  "Sr.": "Senior",
  "Fig.": "figure",
  "Vol.": "volume",
};

/**
 * Units written after a number (5 km, 3.5GB), said as words. Case as written. One-letter units
 * other than K and W are left out: "1990s" is a decade, not seconds.
 */
const UNITS: Record<string, string> = {
  km: "kilometres", "km/h": "kilometres per hour", kph: "kilometres per hour", mph: "miles per hour", cm: "centimetres", mm: "millimetres",
  kg: "kilograms", mg: "milligrams", lb: "pounds", lbs: "pounds", oz: "ounces", ft: "feet",
  ml: "millilitres", hr: "hours", hrs: "hours", min: "minutes", mins: "minutes", sec: "seconds", secs: "seconds", ms: "milliseconds",
  KB: "kilobytes", MB: "megabytes", GB: "gigabytes", TB: "terabytes", Hz: "hertz", kHz: "kilohertz", MHz: "megahertz", GHz: "gigahertz",
  W: "watts", kW: "kilowatts", kWh: "kilowatt hours", mAh: "milliamp hours", fps: "frames per second", K: "K (thousand, or the resolution)",
};

/** Symbols a voice reads aloud, skips or stumbles on, with their usual English reading. */
const SYMBOLS: Record<string, string> = {
  "%": "percent", "&": "and", "@": "at", "#": "number, or hash", $: "dollars", "€": "euros", "£": "pounds", "¥": "yen",
  "+": "plus", "=": "equals", "/": "slash, or per", "\\": "backslash", "*": "asterisk", "~": "about", "^": "caret", "<": "less than",
  ">": "greater than", "|": "vertical bar", _: "underscore", "°": "degrees", "§": "section", "©": "copyright", "®": "registered", "™": "trademark",
  "×": "times", "÷": "divided by", "±": "plus or minus", "→": "to", "≈": "about",
};

/** A word of capitals and digits (an optional plural s); an acronym when it holds two capitals. */
const CAPITALS_WORD = /(?<![\p{L}\p{N}])[A-Z0-9]+s?(?![\p{L}\p{N}])/gu;
const DIGITS = /(?<![\p{L}\p{N}])\d+(?:[.,:]\d+)*(?:st|nd|rd|th)?/gu;
/** A word that starts with a hissing sound: s, z, x, sh, ch, or c before e, i, y. */
const SIBILANT_START = /^(?:s|z|x|ch|c[eiy])/iu;
/** Words in a row that start with a hissing sound before a flag is raised. */
export const SIBILANT_RUN = 3;

// --- detection ------------------------------------------------------------------------------------

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const DOTTED = Object.entries(DOTTED_ABBREVIATIONS).map(([abbreviation, spoken]) => ({
  pattern: new RegExp(`(?<![\\p{L}\\p{N}.])${escapeRegExp(abbreviation)}`, abbreviation === abbreviation.toLowerCase() ? "giu" : "gu"),
  spoken,
}));
const UNIT_PATTERN = new RegExp(
  `(?<=\\d[ \\u00a0]?)(?:${Object.keys(UNITS).sort((a, b) => b.length - a.length).map(escapeRegExp).join("|")})(?![\\p{L}\\p{N}])`,
  "gu",
);

const ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

/** An English reading of a whole number below one billion ("1204" → "one thousand two hundred four"). */
export function englishNumber(value: number): string {
  if (value < 20) return ONES[value]!;
  if (value < 100) return TENS[Math.floor(value / 10)]! + (value % 10 ? `-${ONES[value % 10]}` : "");
  if (value < 1000) return `${ONES[Math.floor(value / 100)]} hundred` + (value % 100 ? ` ${englishNumber(value % 100)}` : "");
  for (const [size, word] of [[1_000_000, "million"], [1000, "thousand"]] as const) {
    if (value >= size) return `${englishNumber(Math.floor(value / size))} ${word}` + (value % size ? ` ${englishNumber(value % size)}` : "");
  }
  return String(value);
}

function digitsFlag(text: string, english: boolean): Pick<SpeechFlag, "spoken_as" | "reason"> {
  if (/(?:st|nd|rd|th)$/.test(text)) return { spoken_as: null, reason: "An ordinal in digits: write it as a word (third, twenty-first) so the voice cannot misread it." };
  if (text.includes(":")) return { spoken_as: null, reason: "A time or ratio: write it as it is said (half past nine, three to one)." };
  if (/^(?:1\d|20)\d\d$/.test(text)) return { spoken_as: null, reason: "A year: a voice may say 'two thousand twenty-four' where you mean 'twenty twenty-four'; write it as it is said." };
  if (/[.,]/.test(text)) return { spoken_as: null, reason: "A number with separators: a voice may read the comma or point differently by language; write it as it is said." };
  const value = Number(text);
  return {
    spoken_as: english && value < 1_000_000_000 ? englishNumber(value) : null,
    reason: text.length > 1 && text.startsWith("0") ? "Digits with a leading zero (a code, a phone number): write them as they are said." : "A number in digits: the voice reads it as a quantity; write it in words where it is said otherwise.",
  };
}

/** Marks [start, end) as claimed, so later detectors skip it. */
function claim(mask: boolean[], start: number, end: number): void {
  for (let index = start; index < end; index++) mask[index] = true;
}

function free(mask: readonly boolean[], start: number, end: number): boolean {
  for (let index = start; index < end; index++) if (mask[index]) return false;
  return true;
}

/** What a voice gets for a paragraph, and what in it may be read wrongly. */
export function checkSpeech(text: string, rules: readonly StyleRuleRow[], language: string): SpeechCheck {
  const { text: spoken, applied } = applySpoken(text, rules);
  const english = language === "en";
  const flags: SpeechFlag[] = [];
  const mask: boolean[] = new Array<boolean>(spoken.length).fill(false);
  const add = (kind: SpeechKind, start: number, found: string, spoken_as: string | null, reason: string) => {
    flags.push({ kind, text: found, start, end: start + found.length, spoken_as: english ? spoken_as : null, reason });
    claim(mask, start, start + found.length);
  };

  for (const pattern of URL_PATTERNS) {
    for (const match of spoken.matchAll(pattern)) {
      const found = match[0].replace(TRAILING_PUNCTUATION, "");
      if (!found || !free(mask, match.index, match.index + found.length)) continue;
      add("url", match.index, found, null, found.includes("@") && !found.includes("/") ? "An e-mail address: the voice spells it out symbol by symbol; say it in words or show it on screen." : "A web address: the voice reads every dot and slash; say it in words (example dot com) or show it on screen.");
    }
  }
  for (const { pattern, spoken: said } of DOTTED) {
    for (const match of spoken.matchAll(pattern)) {
      if (free(mask, match.index, match.index + match[0].length)) add("abbreviation", match.index, match[0], said, `An abbreviation: the voice may read it letter by letter; write "${said}".`);
    }
  }
  for (const match of spoken.matchAll(UNIT_PATTERN)) {
    if (free(mask, match.index, match.index + match[0].length)) add("abbreviation", match.index, match[0], UNITS[match[0]]!, `A unit after a number: the voice may read it letter by letter; write "${UNITS[match[0]]}".`);
  }
  for (const match of spoken.matchAll(CAPITALS_WORD)) {
    if ((match[0].match(/[A-Z]/g)?.length ?? 0) >= 2 && free(mask, match.index, match.index + match[0].length)) add("acronym", match.index, match[0], null, "An acronym: the voice may spell it (A-P-I) or say it as a word (NASA); write it the way it is said, or add a spoken rule.");
  }
  for (const match of spoken.matchAll(DIGITS)) {
    if (!free(mask, match.index, match.index + match[0].length)) continue;
    const { spoken_as, reason } = digitsFlag(match[0], english);
    add("digits", match.index, match[0], spoken_as, reason);
  }
  for (let index = 0; index < spoken.length; index++) {
    const symbol = spoken[index]!;
    if (symbol in SYMBOLS && !mask[index]) add("symbol", index, symbol, SYMBOLS[symbol]!, `A symbol: the voice may say "${SYMBOLS[symbol]}", skip it or stumble; write the word.`);
  }
  // Runs of words that start with a hissing sound; the end of a sentence breaks a run.
  const words = [...spoken.matchAll(/[\p{L}\p{N}'’]+|[.!?]/gu)];
  let run: RegExpExecArray[] = [];
  const closeRun = () => {
    if (run.length >= SIBILANT_RUN) {
      const start = run[0]!.index;
      const last = run.at(-1)!;
      const end = last.index + last[0].length;
      flags.push({ kind: "sibilant_run", text: spoken.slice(start, end), start, end, spoken_as: null, reason: `${run.length} words in a row start with a hissing sound: hard to say cleanly, and harsh on a microphone.` });
    }
    run = [];
  };
  for (const word of words) {
    // A word inside an address (or any claimed span) is not said as a word.
    if (SIBILANT_START.test(word[0]) && free(mask, word.index, word.index + word[0].length)) run.push(word);
    else closeRun();
  }
  closeRun();

  flags.sort((a, b) => a.start - b.start || SPEECH_KINDS.indexOf(a.kind) - SPEECH_KINDS.indexOf(b.kind));
  return { spoken_text: spoken, rules_applied: applied, flags };
}
