// Work on a list, a few items at a time, that fails whole: after one item fails no new item is
// begun, the items already begun are waited for, and then the first failure is thrown. So a
// caller that cleans up after a failure (files stored by the items) runs its cleanup after the
// last item has finished, never while one is still storing.

/** Runs `work` on each item, at most `limit` at once; rejects with the first failure once every begun item has settled. */
export async function eachSideBySide<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const failures: unknown[] = [];
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), queue.length) }, async () => {
    for (let next = queue.shift(); next !== undefined && failures.length === 0; next = queue.shift()) {
      await work(next).catch((error: unknown) => void failures.push(error));
    }
  }));
  if (failures.length > 0) throw failures[0];
}
