// Helpers of the paragraph actions (scripts.delete_paragraphs, move_paragraph, set_paragraph_role,
// lock_paragraphs, annotate_paragraph, set_paragraph_visual, assign_speaker, replace_everywhere)
// and of scripts.undo_change: addressing several paragraphs at once, moving one, comparing what a
// log entry left with what is there now.
import type { Prisma } from "../generated/prisma/client.js";
import type { Tx } from "../db/transaction.js";
import { ApiError } from "../errors/api-error.js";

export type ParagraphRow = Prisma.ScriptParagraphGetPayload<object>;

/**
 * The paragraphs of this script named by `ids`, in document order, each once (a repeated id
 * counts once); 404 at `param` naming every id that is not one of them.
 */
export async function paragraphsOf(tx: Tx, scriptId: string, ids: readonly string[], param = "paragraph_ids"): Promise<ParagraphRow[]> {
  const wanted = [...new Set(ids)];
  const rows = await tx.scriptParagraph.findMany({ where: { script_id: scriptId, paragraph_id: { in: wanted } }, orderBy: { position: "asc" } });
  if (rows.length !== wanted.length) {
    const found = new Set(rows.map((row) => row.paragraph_id));
    const missing = wanted.filter((id) => !found.has(id));
    throw new ApiError("not_found", `No paragraph ${missing.map((id) => `'${id}'`).join(", ")} in this script.`, { param, details: { missing } });
  }
  return rows;
}

/**
 * Moves a paragraph to `index` of the document with it lifted out (0 puts it first), and makes
 * every position dense again; the paragraph's new position.
 */
export async function moveTo(tx: Tx, scriptId: string, paragraphId: string, index: number): Promise<number> {
  const order = (await tx.scriptParagraph.findMany({ where: { script_id: scriptId }, orderBy: [{ position: "asc" }, { created_at: "asc" }, { paragraph_id: "asc" }], select: { paragraph_id: true, position: true } }));
  const rest = order.filter((row) => row.paragraph_id !== paragraphId);
  const target = Math.max(0, Math.min(index, rest.length));
  const moving = order.find((row) => row.paragraph_id === paragraphId)!;
  rest.splice(target, 0, moving);
  for (const [position, row] of rest.entries()) {
    if (row.position !== position) await tx.scriptParagraph.update({ where: { paragraph_id: row.paragraph_id }, data: { position } });
  }
  return target;
}

/** The paragraph just before a position (its id), or null at the top: where a moved paragraph sat. */
export async function predecessorOf(tx: Tx, scriptId: string, position: number): Promise<string | null> {
  if (position <= 0) return null;
  const row = await tx.scriptParagraph.findFirst({ where: { script_id: scriptId, position: position - 1 }, select: { paragraph_id: true } });
  return row?.paragraph_id ?? null;
}

/** JSON values equal regardless of object key order (PostgreSQL's jsonb reorders keys). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return (a ?? null) === (b ?? null);
  if (typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, index) => sameJson(item, other[index]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  return [...keys].every((key) => sameJson(left[key], right[key]));
}

/** Opening words of a text for a human-readable line (history, messages). */
export function opening(text: string | null | undefined, length = 48): string {
  const flat = (text ?? "").replace(/\s+/gu, " ").trim();
  return flat.length <= length ? flat : `${flat.slice(0, length - 1).trimEnd()}…`;
}
