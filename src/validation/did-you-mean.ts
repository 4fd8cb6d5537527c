import { distance } from "fastest-levenshtein";

// Compares names loosely (case and separators ignored) so `videoName` suggests `video_name`.
function normalise(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** The allowed name closest to what was sent, when it is close enough to be a likely typo. */
export function didYouMean(sent: string, allowed: readonly string[]): string | undefined {
  const target = normalise(sent);
  let best: { name: string; score: number } | undefined;
  for (const name of allowed) {
    const score = distance(target, normalise(name));
    if (!best || score < best.score) best = { name, score };
  }
  if (!best) return undefined;
  const tolerance = Math.max(2, Math.floor(target.length / 3));
  return best.score <= tolerance ? best.name : undefined;
}
