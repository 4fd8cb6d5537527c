// The script document's write discipline (docs/scripts.md). Every write call of a scripts action:
//   1. locks the script row (SELECT … FOR UPDATE): writes to one script are serialized, so
//      concurrent calls never lose an update;
//   2. takes a restore point of the document as it was (a full copy), before its first write;
//   3. records each change in the edit log with enough before/after to undo it;
//   4. recounts words and paragraphs and moves the revision on, so a model pass can tell the
//      document changed under it (409 conflict).
// All of it in the call's one transaction (a test key's is rolled back).
import type { Prisma, PrismaClient } from "../generated/prisma/client.js";
import type { Tx } from "../db/transaction.js";
import type { GraphQLContext } from "../graphql/context.js";
import { newId } from "../ids.js";
import { loadOwned } from "../resources/service.js";
import { currentRequestContext } from "../context/request-context.js";
import { scripts } from "./resource.js";

/** Automatic restore points kept per script (manual and safety points are all kept). */
export const AUTO_SNAPSHOTS_KEPT = 50;

export type ScriptRow = Prisma.ScriptGetPayload<object>;
export type SnapshotRow = Prisma.ScriptSnapshotGetPayload<object>;

/** Words in a text: runs of non-space characters. */
export function wordsIn(text: string): number {
  const trimmed = text.trim();
  return trimmed === "" ? 0 : trimmed.split(/\s+/u).length;
}

/** The caller's script, 404 / 403 otherwise (reads). */
export async function readScript(client: PrismaClient | Tx, context: GraphQLContext, scriptId: string): Promise<ScriptRow> {
  await loadOwned(client, context, scripts, scriptId, { select: { script_id: true } }, "read");
  return client.script.findUniqueOrThrow({ where: { script_id: scriptId } });
}

/** The caller's script, locked for the rest of the transaction; 404 / 403 otherwise. */
export async function lockScript(tx: Tx, context: GraphQLContext, scriptId: string): Promise<ScriptRow> {
  await loadOwned(tx, context, scripts, scriptId, { select: { script_id: true } });
  await tx.$queryRaw`SELECT script_id FROM scripts WHERE script_id = ${scriptId} FOR UPDATE`;
  return tx.script.findUniqueOrThrow({ where: { script_id: scriptId } });
}

/** The whole document, as a restore point copies it. */
export async function loadDocument(client: PrismaClient | Tx, scriptId: string) {
  const [script, chapters, speakers, paragraphs] = await Promise.all([
    client.script.findUniqueOrThrow({ where: { script_id: scriptId } }),
    client.scriptChapter.findMany({ where: { script_id: scriptId }, orderBy: { position: "asc" } }),
    client.scriptSpeaker.findMany({ where: { script_id: scriptId }, orderBy: { position: "asc" } }),
    client.scriptParagraph.findMany({ where: { script_id: scriptId }, orderBy: { position: "asc" } }),
  ]);
  return { script, chapters, speakers, paragraphs };
}

export type ScriptDocument = Awaited<ReturnType<typeof loadDocument>>;

/** The fields of the script row a restore point keeps (its meta; identity and counters aside). */
export const META_FIELDS = [
  "title", "topic", "language", "format", "structure", "tone", "audience", "target_duration_ms", "model_ref", "quick_model_ref", "default_voice_ref", "default_voice_name",
] as const;

/** Takes a restore point: a full copy of the document. */
export async function takeSnapshot(tx: Tx, scriptId: string, point: { reason: "auto" | "manual" | "safety"; label?: string | null; action?: string }) {
  const document = await loadDocument(tx, scriptId);
  const meta = Object.fromEntries(META_FIELDS.map((field) => [field, document.script[field]]));
  const copy = { meta, chapters: document.chapters, speakers: document.speakers, paragraphs: document.paragraphs };
  const snapshot = await tx.scriptSnapshot.create({
    data: {
      snapshot_id: newId("script_snapshot"),
      script_id: scriptId,
      label: point.label ?? null,
      reason: point.reason,
      action: point.action ?? null,
      word_count: document.script.word_count,
      request_id: currentRequestContext()?.requestId ?? null,
      document: JSON.parse(JSON.stringify(copy)) as Prisma.InputJsonValue,
    },
  });
  if (point.reason === "auto") {
    // Only the newest automatic points are kept; manual and safety points stay.
    const stale = await tx.scriptSnapshot.findMany({
      where: { script_id: scriptId, reason: "auto" },
      orderBy: [{ created_at: "desc" }, { snapshot_id: "desc" }],
      skip: AUTO_SNAPSHOTS_KEPT,
      select: { snapshot_id: true },
    });
    if (stale.length) await tx.scriptSnapshot.deleteMany({ where: { snapshot_id: { in: stale.map((row) => row.snapshot_id) } } });
  }
  return snapshot;
}

export interface EditEntry {
  paragraphId?: string | null;
  /** paragraph.text, paragraph.insert, paragraph.delete, paragraph.move, paragraph.role, … */
  kind: string;
  before?: unknown;
  after?: unknown;
  /** Written by scripts.undo_change: the entry this one undoes. */
  undoes?: string;
}

/** A write call on one script: locked, its restore point taken, its edits logged. */
export interface ScriptWrite {
  script: ScriptRow;
  /** The restore point taken before the call's first write. */
  point: SnapshotRow;
  /** Logs one change; its edit_id. */
  edit(entry: EditEntry): Promise<string>;
  /** Recounts words and paragraphs, moves the revision on; the script as it now is. */
  done(): Promise<ScriptRow>;
  /**
   * Ends a call that wrote nothing (the document already was as asked): its restore point goes,
   * and the revision stays, so a model pass in flight is not refused for nothing.
   */
  unchanged(): Promise<ScriptRow>;
}

/** The restore point a write call takes before its first write: automatic unless the call names its own. */
export interface WritePoint {
  reason: "auto" | "manual" | "safety";
  label?: string | null;
}

/**
 * Opens a script for a write call (lock, then restore point); the caller then edits and calls
 * done(). A call that takes a point of its own kind (scripts.restore_snapshot's safety point)
 * names it, and it stands in for the automatic one: both would hold the same copy.
 */
export async function openForWrite(tx: Tx, context: GraphQLContext, scriptId: string, action: string, point: WritePoint = { reason: "auto" }): Promise<ScriptWrite> {
  const script = await lockScript(tx, context, scriptId);
  const taken = await takeSnapshot(tx, scriptId, { ...point, action });
  return {
    script,
    point: taken,
    async edit(entry) {
      const editId = newId("script_edit");
      await tx.scriptEdit.create({
        data: {
          edit_id: editId,
          script_id: scriptId,
          paragraph_id: entry.paragraphId ?? null,
          action,
          kind: entry.kind,
          before: entry.before === undefined ? undefined : (JSON.parse(JSON.stringify(entry.before)) as Prisma.InputJsonValue),
          after: entry.after === undefined ? undefined : (JSON.parse(JSON.stringify(entry.after)) as Prisma.InputJsonValue),
          request_id: currentRequestContext()?.requestId ?? null,
          key_id: context.auth.keyId,
          undoes_edit_id: entry.undoes ?? null,
        },
      });
      return editId;
    },
    done: () => recount(tx, scriptId),
    async unchanged() {
      await tx.scriptSnapshot.delete({ where: { snapshot_id: taken.snapshot_id } });
      return script;
    },
  };
}

/** Words, paragraphs and the revision of a script after its paragraphs changed. */
export async function recount(tx: Tx, scriptId: string): Promise<ScriptRow> {
  const totals = await tx.scriptParagraph.aggregate({ where: { script_id: scriptId }, _sum: { word_count: true }, _count: { _all: true } });
  return tx.script.update({
    where: { script_id: scriptId },
    data: { word_count: totals._sum.word_count ?? 0, paragraph_count: totals._count._all, revision: { increment: 1 } },
  });
}

/** Makes paragraph positions 0 … n-1 again, in their current order (after an insert, delete or move). */
export async function renumber(tx: Tx, scriptId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE script_paragraphs AS p SET position = ordered.n
    FROM (SELECT paragraph_id, (row_number() OVER (ORDER BY position, created_at, paragraph_id) - 1)::int AS n
          FROM script_paragraphs WHERE script_id = ${scriptId}) AS ordered
    WHERE p.paragraph_id = ordered.paragraph_id AND p.position <> ordered.n`;
}
