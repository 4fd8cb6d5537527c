// What a dead worker can leave behind on its machine, cleaned when a worker starts there: child
// processes still running in an operation's work directory (where setpriv could not tie them to
// their parent) and the work directories themselves, including those of operations still marked
// running under the dead worker's lease (docs/operations.md, "What a dead worker leaves behind").
import os from "node:os";
import path from "node:path";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import type { PrismaClient } from "../generated/prisma/client.js";
import { logger } from "../logger.js";
import { processAlive } from "../db/database.js";
import { usesWorkDir, WORK_DIR_PREFIX } from "./worker.js";

/** A work directory of an operation this database does not know is left this long. */
const UNKNOWN_DIR_GRACE_MS = 24 * 3_600_000;

/** Kills processes adopted by init whose command line names an operation work directory. */
async function killOrphanedChildren(): Promise<number> {
  const marker = path.join(os.tmpdir(), WORK_DIR_PREFIX);
  let killed = 0;
  let entries: string[];
  try {
    entries = await readdir("/proc");
  } catch {
    return 0; // not Linux
  }
  for (const entry of entries.filter((name) => /^\d+$/.test(name))) {
    try {
      const status = await readFile(`/proc/${entry}/status`, "utf8");
      if (/^PPid:\s*(\d+)/m.exec(status)?.[1] !== "1") continue;
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, "utf8")).split("\0").join(" ");
      if (!cmdline.includes(marker)) continue;
      process.kill(Number(entry), "SIGKILL");
      killed++;
    } catch {
      // The process ended meanwhile, or is not ours to read.
    }
  }
  return killed;
}

/**
 * Is a live worker using this directory? Its name says which process made it (`-w<pid>-`): that
 * process, if alive; this one only if an attempt of it runs there (a worker restarted in a
 * container often gets its predecessor's pid). Never a guess that removes a directory in use: a
 * live process that reused a dead worker's pid keeps the directory until a later start.
 */
function inUse(directory: string, makerPid: number): boolean {
  return makerPid === process.pid ? usesWorkDir(directory) : processAlive(makerPid);
}

/**
 * Removes work directories no live worker uses: those whose maker died (SIGKILL, a crash), even
 * while their operation is still marked running under the dead worker's lease. A directory named
 * before names carried their maker goes once its operation is not running, or, unknown to this
 * database, once old.
 */
async function removeStaleWorkDirs(prisma: PrismaClient): Promise<number> {
  const directory = os.tmpdir();
  const names = (await readdir(directory)).filter((name) => name.startsWith(WORK_DIR_PREFIX));
  let removed = 0;
  for (const name of names) {
    const [, operationId, maker] = /^cutroom-op-(op_[0-9A-Za-z]+)-(?:w(\d+)-)?/.exec(name) ?? [];
    const full = path.join(directory, name);
    let stale: boolean;
    if (maker !== undefined) {
      stale = !inUse(full, Number(maker));
    } else {
      const operation = operationId ? await prisma.operation.findUnique({ where: { operation_id: operationId }, select: { status: true } }) : null;
      stale = operation ? operation.status !== "running" : Date.now() - (await stat(full)).mtimeMs > UNKNOWN_DIR_GRACE_MS;
    }
    if (!stale) continue;
    await rm(full, { recursive: true, force: true });
    removed++;
  }
  return removed;
}

export async function reapOrphans(prisma: PrismaClient): Promise<void> {
  try {
    const killed = await killOrphanedChildren();
    const removed = await removeStaleWorkDirs(prisma);
    if (killed || removed) logger.info({ killed, removed }, "reaped what dead workers left");
  } catch (error) {
    logger.warn({ err: error }, "orphans not reaped");
  }
}
