// Files of takes and clips whose rows are gone. A take or clip goes with its script, its paragraph
// (delete, undo, restore, a rewrite) or by itself, mostly as a cascade no action sees; the row's
// delete trigger (migration 20261126210000_storage_orphans) lists its storage key in
// storage_orphans inside the deleting transaction, so nothing is listed for a deletion that rolled
// back, and nothing deleted is missed. maintenance.prune calls this to delete the files.
//
// A file is kept HANDOVER_LINK_SECONDS after its row went: a video made from the script
// (scripts.to_video) plays its takes and clips through signed links that last that long, and a
// link is only ever minted while the row exists, so none outlives the file. A key another row still
// holds stays (a duplicated script's takes share their files). A key listed again while the sweep
// ran has a newer orphaned_at and is left for the next sweep.
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Storage } from "../storage/storage.js";

/** How long the links of a hand-over composition (scripts.to_video) stay valid: a later render must still fetch them. */
export const HANDOVER_LINK_SECONDS = 30 * 24 * 3600;

const BATCH = 500;

/**
 * Deletes the files of keys listed before `listedBefore` (default: the hand-over links' lifetime
 * ago) that no take or clip holds any more; returns how many went.
 */
export async function deleteOrphanedFiles(
  prisma: PrismaClient,
  storage: Storage,
  listedBefore = new Date(Date.now() - HANDOVER_LINK_SECONDS * 1000),
  maxBatches = 20,
): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const orphans = await prisma.storageOrphan.findMany({ where: { orphaned_at: { lt: listedBefore } }, orderBy: { orphaned_at: "asc" }, take: BATCH });
    if (orphans.length === 0) break;
    const keys = orphans.map((orphan) => orphan.storage_key);
    const [takes, clips] = await Promise.all([
      prisma.scriptTake.findMany({ where: { storage_key: { in: keys } }, select: { storage_key: true } }),
      prisma.scriptClip.findMany({ where: { storage_key: { in: keys } }, select: { storage_key: true } }),
    ]);
    const held = new Set<string | null>([...takes, ...clips].map((row) => row.storage_key));
    for (const orphan of orphans) {
      if (held.has(orphan.storage_key)) continue;
      await storage.delete(orphan.storage_key);
      deleted++;
    }
    // The files go before their listings: a crash in between leaves the keys listed, and deleting
    // a file twice is harmless. A key listed again meanwhile (a newer orphaned_at) stays listed.
    await prisma.storageOrphan.deleteMany({ where: { OR: orphans.map(({ storage_key, orphaned_at }) => ({ storage_key, orphaned_at })) } });
    if (orphans.length < BATCH) break;
  }
  return deleted;
}
