// A background from the shelf for each scene that has no picture of its own, picked by the
// scene's words and varied from scene to scene: each background scores the scene's words found in
// its name, description and tags (a few common themes widen a word: "sea" finds "ocean", "moon"
// finds "dark"); the best one that is not the previous scene's wins, ties going round the shelf in
// order, so two scenes in a row never share a picture while the shelf has two.

export interface ShelfBackground {
  background_ref: string;
  name: string;
  description: string | null;
  tags: readonly string[];
  kind: string;
}

export interface PickedBackground {
  background: ShelfBackground;
  /** The words that chose it (empty: picked to vary, no word matched). */
  matched: string[];
}

const THEMES: Record<string, readonly string[]> = {
  ocean: ["sea", "ocean", "water", "wave", "waves", "tide", "tides", "beach", "river", "rain", "blue", "fish", "swim", "sail", "boat"],
  dusk: ["dusk", "sunset", "evening", "sun", "warm", "summer", "fire", "orange", "autumn", "light"],
  dark: ["night", "moon", "star", "stars", "space", "dark", "sleep", "dream", "sky", "planet"],
  calm: ["calm", "quiet", "peace", "slow", "breathe", "relax", "gentle"],
  pattern: ["city", "street", "building", "grid", "data", "code", "computer", "machine", "work", "office", "math", "science"],
  loop: ["move", "moving", "motion", "fast", "energy", "music", "dance"],
};

const tokens = (text: string) => text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").split(/[^a-z0-9]+/).filter((word) => word.length > 2);

function vocabulary(background: ShelfBackground): Set<string> {
  return new Set([...tokens(`${background.name} ${background.description ?? ""}`), ...background.tags.flatMap(tokens)]);
}

/** The words of a text that match a background, themes included. */
function matchesOf(words: readonly string[], vocabulary: Set<string>): string[] {
  const found = new Set<string>();
  for (const word of words) {
    if (vocabulary.has(word)) found.add(word);
    for (const [theme, members] of Object.entries(THEMES)) if (members.includes(word) && vocabulary.has(theme)) found.add(word);
  }
  return [...found];
}

/** One background per text, in order; empty when the shelf is. */
export function pickBackgrounds(texts: readonly string[], shelf: readonly ShelfBackground[]): PickedBackground[] {
  if (shelf.length === 0) return [];
  const vocabularies = shelf.map(vocabulary);
  let previous = -1;
  return texts.map((text, index) => {
    const words = tokens(text);
    const scored = shelf.map((background, at) => ({ at, matched: matchesOf(words, vocabularies[at]!) }));
    const candidates = scored.filter((entry) => shelf.length === 1 || entry.at !== previous);
    const best = Math.max(...candidates.map((entry) => entry.matched.length));
    const tied = candidates.filter((entry) => entry.matched.length === best);
    const chosen = tied[index % tied.length]!;
    previous = chosen.at;
    return { background: shelf[chosen.at]!, matched: chosen.matched };
  });
}
