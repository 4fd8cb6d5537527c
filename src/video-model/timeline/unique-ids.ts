// A list of the timeline whose items are addressed by an id (scenes, smart groups): each id once.
import type { z } from "zod";

/** A superRefine check: an issue at `<index>.<key>` for each id seen before in the list. */
export function uniqueIds<Key extends string>(key: Key, label: string) {
  return (items: readonly Record<Key, string>[], context: z.RefinementCtx) => {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      if (seen.has(item[key])) context.addIssue({ code: "custom", path: [index, key], message: `${label} id '${item[key]}' appears twice.` });
      seen.add(item[key]);
    });
  };
}
