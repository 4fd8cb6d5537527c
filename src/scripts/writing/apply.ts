// How the passes that write (docs/scripts.md, "Passes that write") change the document, inside
// the one transaction opened by `openIfUnchanged`: each change is a row of the edit log of the
// same kind a direct edit writes (`paragraph.text`, `paragraph.insert`, `paragraph.delete`,
// `paragraph.visual`, `paragraph.chapter`, `meta`), so scripts.undo_change undoes them one by one;
// the restore point the write took (`snapshot_id` in every answer) undoes the whole pass.
// Chapters are added and removed as `chapter.add` / `chapter.delete`, undone through that point.
import { z } from "zod";
import type { Tx } from "../../db/transaction.js";
import { newId } from "../../ids.js";
import { renumber, wordsIn, type ScriptWrite } from "../document.js";
import type { ParagraphRow } from "../paragraphs.js";
import { sameJson } from "../paragraphs.js";
import { EXCERPT_CHARACTERS } from "../actions/add_source.js";
import { chapterShape, paragraphShape, presentChapter, presentParagraph, presentSource, presentVisual, sourceShape, visualShape } from "../present.js";
import { echoedRequest } from "../summary.js";
import type { PassDocument } from "./pass.js";

/** Characters of a page's text kept as a filed source's snippet. */
const SNIPPET_CHARACTERS = 500;

function clip(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 1).trimEnd()}…`;
}

/** One change a pass made: the paragraph (or chapter) and its entry in the edit log. */
export interface PassChange {
  paragraph_id: string | null;
  chapter_id: string | null;
  kind: string;
  edit_id: string;
}

const changeShape = z
  .object({
    paragraph_id: z.string().nullable(),
    chapter_id: z.string().nullable(),
    kind: z.string().describe("The edit log entry's kind: paragraph.text, paragraph.insert, paragraph.delete, paragraph.visual, paragraph.chapter, chapter.add, chapter.delete or meta."),
    edit_id: z.string().describe("scripts.undo_change undoes this one change."),
  })
  .meta({ id: "ScriptPassChange", description: "One change a writing pass made." });

/** The fields every pass that writes answers, before its own. */
export function passOutput<const O extends string, S extends z.ZodRawShape>(object: O, own: S) {
  return z.object({
    object: z.literal(object),
    script_id: z.string(),
    model: z.string().nullable().describe("The text model the pass ran on, `<provider>/<model id>`."),
    paragraphs: z.array(paragraphShape).describe("The paragraphs the pass wrote, as they now are, in script order."),
    changes: z.array(changeShape).describe("Every change, each with its edit log entry."),
    locked_skipped: z.number().int().describe("Locked paragraphs the pass left as they are."),
    locked_paragraph_ids: z.array(z.string()),
    snapshot_id: z.string().nullable().describe("The restore point taken before the pass: scripts.restore_snapshot with it undoes the whole pass. Null when the pass changed nothing."),
    revision: z.number().int(),
    request: echoedRequest,
    ...own,
  });
}

/** Collects a pass's changes on one open write, then answers the common fields. */
export class PassWriter {
  readonly changes: PassChange[] = [];
  private readonly written = new Set<string>();

  constructor(
    private readonly tx: Tx,
    readonly write: ScriptWrite,
    private readonly scriptId: string,
  ) {}

  private async log(entry: { paragraphId?: string | null; chapterId?: string | null; kind: string; before?: unknown; after?: unknown }): Promise<string> {
    const editId = await this.write.edit({ paragraphId: entry.paragraphId ?? null, kind: entry.kind, before: entry.before, after: entry.after });
    this.changes.push({ paragraph_id: entry.paragraphId ?? null, chapter_id: entry.chapterId ?? null, kind: entry.kind, edit_id: editId });
    if (entry.paragraphId && entry.kind !== "paragraph.delete") this.written.add(entry.paragraphId);
    return editId;
  }

  /** New words for a paragraph; nothing when they are the same. */
  async setText(paragraph: ParagraphRow, text: string): Promise<void> {
    if (paragraph.text === text) return;
    await this.tx.scriptParagraph.update({ where: { paragraph_id: paragraph.paragraph_id }, data: { text, word_count: wordsIn(text) } });
    await this.log({ paragraphId: paragraph.paragraph_id, kind: "paragraph.text", before: { text: paragraph.text }, after: { text } });
  }

  /** A paragraph's visual direction, replaced whole; nothing when it is the same. */
  async setVisual(paragraph: ParagraphRow, visual: z.output<typeof visualShape>): Promise<void> {
    const before = presentVisual(paragraph.visual);
    if (sameJson(before, visual)) return;
    await this.tx.scriptParagraph.update({ where: { paragraph_id: paragraph.paragraph_id }, data: { visual } });
    await this.log({ paragraphId: paragraph.paragraph_id, kind: "paragraph.visual", before: { visual: before }, after: { visual } });
  }

  /** Moves a paragraph into a chapter (null: none); nothing when it is there already. */
  async setChapter(paragraph: Pick<ParagraphRow, "paragraph_id" | "chapter_id">, chapterId: string | null): Promise<void> {
    if (paragraph.chapter_id === chapterId) return;
    await this.tx.scriptParagraph.update({ where: { paragraph_id: paragraph.paragraph_id }, data: { chapter_id: chapterId } });
    await this.log({ paragraphId: paragraph.paragraph_id, kind: "paragraph.chapter", before: { chapter_id: paragraph.chapter_id }, after: { chapter_id: chapterId } });
  }

  /** Inserts paragraphs at `position` (0-based; the document's length appends), in order. */
  async insert(position: number, drafts: readonly { text: string; role: string; chapter_id?: string | null; speaker_id?: string | null }[]): Promise<ParagraphRow[]> {
    if (!drafts.length) return [];
    await this.tx.scriptParagraph.updateMany({ where: { script_id: this.scriptId, position: { gte: position } }, data: { position: { increment: drafts.length } } });
    const ids: string[] = [];
    for (const [offset, draft] of drafts.entries()) {
      const paragraphId = newId("script_paragraph");
      ids.push(paragraphId);
      await this.tx.scriptParagraph.create({
        data: {
          paragraph_id: paragraphId,
          script_id: this.scriptId,
          position: position + offset,
          role: draft.role,
          text: draft.text,
          word_count: wordsIn(draft.text),
          chapter_id: draft.chapter_id ?? null,
          speaker_id: draft.speaker_id ?? null,
        },
      });
    }
    await renumber(this.tx, this.scriptId);
    const rows = await this.tx.scriptParagraph.findMany({ where: { paragraph_id: { in: ids } }, orderBy: { position: "asc" } });
    for (const row of rows) await this.log({ paragraphId: row.paragraph_id, kind: "paragraph.insert", after: presentParagraph(row) });
    return rows;
  }

  /** Deletes paragraphs (each logged with everything needed to bring it back). */
  async remove(rows: readonly ParagraphRow[]): Promise<void> {
    if (!rows.length) return;
    await this.tx.scriptParagraph.deleteMany({ where: { paragraph_id: { in: rows.map((row) => row.paragraph_id) } } });
    await renumber(this.tx, this.scriptId);
    for (const row of rows) await this.log({ paragraphId: row.paragraph_id, kind: "paragraph.delete", before: presentParagraph(row) });
  }

  /** Adds a chapter at the end of the chapter list. */
  async addChapter(chapter: { title: string; summary: string | null }): Promise<z.output<typeof chapterShape>> {
    const position = await this.tx.scriptChapter.count({ where: { script_id: this.scriptId } });
    const row = await this.tx.scriptChapter.create({ data: { chapter_id: newId("script_chapter"), script_id: this.scriptId, position, title: chapter.title, summary: chapter.summary } });
    await this.log({ chapterId: row.chapter_id, kind: "chapter.add", after: presentChapter(row) });
    return presentChapter(row);
  }

  /** Removes chapters (their paragraphs, if any, are in no chapter afterwards). */
  async removeChapters(chapters: readonly { chapter_id: string; position: number; title: string; summary: string | null }[]): Promise<void> {
    if (!chapters.length) return;
    await this.tx.scriptChapter.deleteMany({ where: { chapter_id: { in: chapters.map((row) => row.chapter_id) } } });
    for (const chapter of chapters) await this.log({ chapterId: chapter.chapter_id, kind: "chapter.delete", before: presentChapter(chapter) });
    await this.renumberChapters();
  }

  /** Makes chapter positions 0 … n-1 again, by the first paragraph each holds (empty ones after, in their order). */
  async renumberChapters(): Promise<void> {
    const [chapters, paragraphs] = await Promise.all([
      this.tx.scriptChapter.findMany({ where: { script_id: this.scriptId }, orderBy: [{ position: "asc" }, { created_at: "asc" }, { chapter_id: "asc" }] }),
      this.tx.scriptParagraph.findMany({ where: { script_id: this.scriptId }, select: { chapter_id: true, position: true } }),
    ]);
    const first = new Map<string, number>();
    for (const paragraph of paragraphs) {
      if (paragraph.chapter_id && !(first.get(paragraph.chapter_id)! <= paragraph.position)) first.set(paragraph.chapter_id, paragraph.position);
    }
    const order = chapters
      .map((chapter, index) => ({ chapter, key: first.get(chapter.chapter_id) ?? Number.MAX_SAFE_INTEGER, index }))
      .sort((a, b) => a.key - b.key || a.index - b.index);
    for (const [position, { chapter }] of order.entries()) {
      if (chapter.position !== position) await this.tx.scriptChapter.update({ where: { chapter_id: chapter.chapter_id }, data: { position } });
    }
  }

  /** The script's meta fields (title, language, …) the pass set; nothing when they are the same. */
  async setMeta(current: Record<string, unknown>, values: Record<string, string | null>): Promise<void> {
    const changed = Object.keys(values).filter((field) => !sameJson(current[field] ?? null, values[field]));
    if (!changed.length) return;
    const after = Object.fromEntries(changed.map((field) => [field, values[field]]));
    await this.tx.script.update({ where: { script_id: this.scriptId }, data: after });
    await this.log({ kind: "meta", before: Object.fromEntries(changed.map((field) => [field, current[field] ?? null])), after });
  }

  /**
   * Files a page the pass read as a source of the script (`kind: source`, confirmed): the same
   * address filed again refreshes its source (`source.refresh`), as scripts.add_source does.
   */
  async fileSource(page: { url: string; title: string | null; text: string }): Promise<z.output<typeof sourceShape>> {
    const fields = { title: page.title?.trim() || null, snippet: clip(page.text.replace(/\s+/gu, " ").trim(), SNIPPET_CHARACTERS) || null, excerpt: clip(page.text, EXCERPT_CHARACTERS), status: "confirmed" };
    const existing = await this.tx.scriptSource.findFirst({ where: { script_id: this.scriptId, kind: "source", url: page.url }, orderBy: { created_at: "asc" } });
    const source = existing
      ? await this.tx.scriptSource.update({ where: { source_id: existing.source_id }, data: fields })
      : await this.tx.scriptSource.create({ data: { source_id: newId("script_source"), script_id: this.scriptId, kind: "source", url: page.url, ...fields } });
    await this.log({ kind: existing ? "source.refresh" : "source.add", before: existing ? presentSource(existing) : undefined, after: presentSource(source) });
    return presentSource(source);
  }

  /**
   * Ends the write (recount and a new revision, or no trace at all when nothing changed) and
   * answers the fields every pass shares.
   */
  async finish(document: PassDocument, model: string | null, request: unknown, locked: readonly string[]) {
    const script = this.changes.length ? await this.write.done() : await this.write.unchanged();
    const rows = this.written.size
      ? await this.tx.scriptParagraph.findMany({ where: { paragraph_id: { in: [...this.written] } }, orderBy: { position: "asc" } })
      : [];
    const common = {
      script_id: document.script.script_id,
      model,
      paragraphs: rows.map(presentParagraph),
      changes: this.changes,
      locked_skipped: locked.length,
      locked_paragraph_ids: [...locked],
      snapshot_id: this.changes.length ? this.write.point.snapshot_id : null,
      revision: script.revision,
      request: (request ?? null) as z.output<typeof echoedRequest>,
    };
    return { common, script };
  }
}

/** The unlocked and locked paragraphs of a document, in order. */
export function byLock(paragraphs: readonly ParagraphRow[]): { open: ParagraphRow[]; locked: string[] } {
  return { open: paragraphs.filter((row) => !row.locked), locked: paragraphs.filter((row) => row.locked).map((row) => row.paragraph_id) };
}

/** A paragraph's words as a model answered them: trimmed, blank lines inside closed up to one. */
export function cleanText(text: string): string {
  return text.replace(/\r\n?/gu, "\n").replace(/\n{3,}/gu, "\n\n").trim();
}

/**
 * Where a draft that replaces the unlocked paragraphs goes once they are deleted: where the first
 * of them was (locked paragraphs before it stay above the draft, those after it below); at the end
 * when every paragraph is locked.
 */
export function replacedAt(paragraphs: readonly ParagraphRow[]): number {
  const first = paragraphs.findIndex((row) => !row.locked);
  return first === -1 ? paragraphs.length : first;
}
