// Undoing one entry of the edit log (scripts.undo_change) and saying what an entry did
// (scripts.history). docs/scripts.md, "Undo", gives the rules:
// - an entry is undone by writing its `before` back, as a new entry of the log (same kind, before
//   and after swapped, `undoes_edit_id` naming it); the entry gets `undone_at`. Undoing that new
//   entry redoes the first one.
// - only while what the entry left is still there: the fields it set still hold its `after`, its
//   paragraph or speaker still exists (a deleted one is not back yet). Otherwise 409 conflict,
//   naming the newer entries that changed it: undo those first, or restore a restore point.
// - a locked paragraph is skipped (the answer says so and changes nothing), except for an entry
//   that is the lock itself: undoing `paragraph.lock` unlocks.
// - a restore (`document.restore`) is undone by restoring its safety point, not here.
import type { Tx } from "../db/transaction.js";
import { Prisma } from "../generated/prisma/client.js";
import { META_FIELDS, renumber, wordsIn, type ScriptRow, type ScriptWrite } from "./document.js";
import { newId } from "../ids.js";
import { moveTo, opening, sameJson, type ParagraphRow } from "./paragraphs.js";
import { presentParagraph, presentVisual } from "./present.js";
import { MAX_SPEAKERS, renumberSpeakers, speakerCopy, type SpeakerCopy, type SpeakerRow } from "./speakers.js";

export type EditRow = Prisma.ScriptEditGetPayload<object>;

/** What undo reads: the document as it is now. */
export interface UndoState {
  script: ScriptRow;
  paragraphs: ParagraphRow[];
  speakers: SpeakerRow[];
  chapterIds: Set<string>;
}

export async function undoState(tx: Tx, script: ScriptRow): Promise<UndoState> {
  const [paragraphs, speakers, chapters] = await Promise.all([
    tx.scriptParagraph.findMany({ where: { script_id: script.script_id }, orderBy: { position: "asc" } }),
    tx.scriptSpeaker.findMany({ where: { script_id: script.script_id }, orderBy: { position: "asc" } }),
    tx.scriptChapter.findMany({ where: { script_id: script.script_id }, select: { chapter_id: true } }),
  ]);
  return { script, paragraphs, speakers, chapterIds: new Set(chapters.map((row) => row.chapter_id)) };
}

/** Why an entry cannot be undone now. */
export type UndoBlock = "already_undone" | "changed_since" | "gone" | "not_undoable";

export interface UndoOutcome {
  /** The new log entry that undid it. */
  undoEditId: string;
  /** The paragraph it touched, when one. */
  paragraphId: string | null;
  /** Locked paragraphs left as they were (speaker.remove: lines not given back). */
  skippedLocked: string[];
}

export type UndoPlan =
  | { state: "ready"; apply(tx: Tx, write: ScriptWrite): Promise<UndoOutcome> }
  | { state: "skipped"; reason: "locked"; paragraphIds: string[]; message: string }
  | { state: "blocked"; reason: UndoBlock; message: string };

/** Paragraph columns a log entry may set (any kind whose before/after hold only these is undone field by field). */
const PARAGRAPH_FIELDS = ["text", "role", "locked", "note", "visual", "speaker_id", "chapter_id", "playback_rate"] as const;
/** Speaker columns of speaker.update / speaker.voice / speaker.face. */
const SPEAKER_FIELDS = ["name", "persona", "voice_ref", "voice_name", "face_url", "face_aspect"] as const;
/** What an inserted paragraph must still hold for its insertion to be undone. */
const CONTENT_FIELDS = ["text", "role", "speaker_id", "chapter_id", "note", "visual"] as const;

type Fields = Record<string, unknown>;

const objectOf = (value: unknown): Fields | null => (value && typeof value === "object" && !Array.isArray(value) ? (value as Fields) : null);

/** A paragraph's value of a column as log entries hold it (the visual as the API shows it). */
function paragraphValue(row: ParagraphRow, field: string): unknown {
  if (field === "visual") return presentVisual(row.visual);
  return (row as unknown as Fields)[field] ?? null;
}

function blocked(reason: UndoBlock, message: string): UndoPlan {
  return { state: "blocked", reason, message };
}

function lockedSkip(paragraphIds: string[]): UndoPlan {
  return { state: "skipped", reason: "locked", paragraphIds, message: `Skipped: ${paragraphIds.length === 1 ? "the paragraph is" : "paragraphs it touches are"} locked (scripts.lock_paragraphs with locked false unlocks).` };
}

function onlyFields(value: Fields | null, allowed: readonly string[], extra: readonly string[] = []): boolean {
  return value !== null && Object.keys(value).length > 0 && Object.keys(value).every((key) => allowed.includes(key) || extra.includes(key));
}

/** Data written back to a paragraph column. */
function paragraphData(values: Fields): Prisma.ScriptParagraphUncheckedUpdateInput {
  const data: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(values)) {
    if (field === "visual") data.visual = value === null || value === undefined ? Prisma.DbNull : (value);
    else data[field] = value ?? null;
  }
  if (typeof values.text === "string") data.word_count = wordsIn(values.text);
  return data;
}

/** How to undo `entry` on the document as it is now (nothing is written until apply). */
export function planUndo(entry: EditRow, state: UndoState): UndoPlan {
  if (entry.undone_at) return blocked("already_undone", "This entry was undone already; undo the entry that undid it to redo it.");
  const before = objectOf(entry.before);
  const after = objectOf(entry.after);
  const paragraph = entry.paragraph_id ? state.paragraphs.find((row) => row.paragraph_id === entry.paragraph_id) : undefined;

  switch (entry.kind) {
    case "paragraph.insert":
      return planUndoInsert(entry, state, paragraph, after);
    case "paragraph.delete":
      return planUndoDelete(entry, state, paragraph, before);
    case "paragraph.move":
      return planUndoMove(entry, state, paragraph, before, after);
    case "speaker.add":
      return planUndoSpeakerAdd(entry, state, after);
    case "speaker.remove":
      return planUndoSpeakerRemove(entry, state, before);
    case "document.restore":
      return blocked("not_undoable", `A restore is undone by restoring the safety point it took${before?.snapshot_id ? ` (${shown(before.snapshot_id)})` : ""} with scripts.restore_snapshot.`);
  }
  if (entry.paragraph_id && onlyFields(before, PARAGRAPH_FIELDS) && onlyFields(after, PARAGRAPH_FIELDS)) return planUndoParagraphFields(entry, state, paragraph, before!, after!);
  if (!entry.paragraph_id && entry.kind === "meta" && onlyFields(before, META_FIELDS) && onlyFields(after, META_FIELDS)) return planUndoMeta(entry, state, before!, after!);
  if (!entry.paragraph_id && entry.kind.startsWith("speaker.") && onlyFields(before, SPEAKER_FIELDS, ["speaker_id"]) && onlyFields(after, SPEAKER_FIELDS, ["speaker_id"])) {
    return planUndoSpeakerFields(entry, state, before!, after!);
  }
  return blocked("not_undoable", `Entries of kind '${entry.kind}' cannot be undone one by one; restore a restore point (scripts.snapshots) instead.`);
}

/** Logs the inverse of `entry` and marks it undone (an undo of an undo brings the first entry back). */
async function logUndo(tx: Tx, write: ScriptWrite, entry: EditRow, inverse: { kind?: string; before?: unknown; after?: unknown; paragraphId?: string | null }): Promise<string> {
  const undoEditId = await write.edit({ paragraphId: inverse.paragraphId === undefined ? entry.paragraph_id : inverse.paragraphId, kind: inverse.kind ?? entry.kind, before: inverse.before, after: inverse.after, undoes: entry.edit_id });
  await tx.scriptEdit.update({ where: { edit_id: entry.edit_id }, data: { undone_at: new Date() } });
  if (entry.undoes_edit_id) await tx.scriptEdit.updateMany({ where: { edit_id: entry.undoes_edit_id, script_id: entry.script_id }, data: { undone_at: null } });
  return undoEditId;
}

function planUndoParagraphFields(entry: EditRow, state: UndoState, paragraph: ParagraphRow | undefined, before: Fields, after: Fields): UndoPlan {
  if (!paragraph) return blocked("gone", "The paragraph was deleted since; undo its deletion first.");
  if (paragraph.locked && entry.kind !== "paragraph.lock") return lockedSkip([paragraph.paragraph_id]);
  const changed = Object.keys(after).filter((field) => !sameJson(paragraphValue(paragraph, field), after[field]));
  if (changed.length) return blocked("changed_since", `The paragraph's ${changed.join(", ")} changed since this entry; undo the newer entries first.`);
  if (typeof before.speaker_id === "string" && !state.speakers.some((row) => row.speaker_id === before.speaker_id)) {
    return blocked("gone", "The speaker these lines had was removed since; undo its removal first.");
  }
  if (typeof before.chapter_id === "string" && !state.chapterIds.has(before.chapter_id)) return blocked("gone", "The chapter this paragraph was in no longer exists.");
  return {
    state: "ready",
    async apply(tx, write) {
      await tx.scriptParagraph.update({ where: { paragraph_id: paragraph.paragraph_id }, data: paragraphData(before) });
      const undoEditId = await logUndo(tx, write, entry, { before: after, after: before });
      return { undoEditId, paragraphId: paragraph.paragraph_id, skippedLocked: [] };
    },
  };
}

function planUndoMeta(entry: EditRow, state: UndoState, before: Fields, after: Fields): UndoPlan {
  const script = state.script as unknown as Fields;
  const changed = Object.keys(after).filter((field) => !sameJson(script[field] ?? null, after[field]));
  if (changed.length) return blocked("changed_since", `The script's ${changed.join(", ")} changed since this entry; undo the newer entries first.`);
  return {
    state: "ready",
    async apply(tx, write) {
      await tx.script.update({ where: { script_id: entry.script_id }, data: Object.fromEntries(Object.entries(before).map(([field, value]) => [field, value ?? null])) });
      const undoEditId = await logUndo(tx, write, entry, { before: after, after: before });
      return { undoEditId, paragraphId: null, skippedLocked: [] };
    },
  };
}

function planUndoSpeakerFields(entry: EditRow, state: UndoState, before: Fields, after: Fields): UndoPlan {
  const speakerId = (after.speaker_id ?? before.speaker_id) as string | undefined;
  const speaker = state.speakers.find((row) => row.speaker_id === speakerId);
  if (!speaker) return blocked("gone", "The speaker was removed since; undo its removal first.");
  const fields = Object.keys(after).filter((field) => field !== "speaker_id");
  const changed = fields.filter((field) => !sameJson((speaker as unknown as Fields)[field] ?? null, after[field]));
  if (changed.length) return blocked("changed_since", `The speaker's ${changed.join(", ")} changed since this entry; undo the newer entries first.`);
  if (typeof before.name === "string") {
    const name = before.name.toLowerCase();
    if (state.speakers.some((row) => row.speaker_id !== speaker.speaker_id && row.name.toLowerCase() === name)) return blocked("changed_since", `Another speaker is named '${before.name}' since.`);
  }
  return {
    state: "ready",
    async apply(tx, write) {
      const data = Object.fromEntries(fields.map((field) => [field, before[field] ?? null]));
      await tx.scriptSpeaker.update({ where: { speaker_id: speaker.speaker_id }, data });
      const undoEditId = await logUndo(tx, write, entry, { before: after, after: before });
      return { undoEditId, paragraphId: null, skippedLocked: [] };
    },
  };
}

function planUndoInsert(entry: EditRow, state: UndoState, paragraph: ParagraphRow | undefined, after: Fields | null): UndoPlan {
  if (!paragraph) return blocked("gone", "The paragraph was deleted since.");
  if (paragraph.locked) return lockedSkip([paragraph.paragraph_id]);
  const changed = after ? CONTENT_FIELDS.filter((field) => field in after && !sameJson(paragraphValue(paragraph, field), after[field])) : [];
  if (changed.length) return blocked("changed_since", `The paragraph's ${changed.join(", ")} changed since it was inserted; undo the newer entries first.`);
  return {
    state: "ready",
    async apply(tx, write) {
      const copy = presentParagraph(paragraph);
      await tx.scriptParagraph.delete({ where: { paragraph_id: paragraph.paragraph_id } });
      await renumber(tx, entry.script_id);
      const undoEditId = await logUndo(tx, write, entry, { kind: "paragraph.delete", before: copy, after: undefined });
      return { undoEditId, paragraphId: paragraph.paragraph_id, skippedLocked: [] };
    },
  };
}

function planUndoDelete(entry: EditRow, state: UndoState, paragraph: ParagraphRow | undefined, before: Fields | null): UndoPlan {
  if (paragraph) return blocked("already_undone", "The paragraph is in the script again.");
  if (!before || typeof before.text !== "string") return blocked("not_undoable", "This entry does not hold the deleted paragraph.");
  return {
    state: "ready",
    async apply(tx, write) {
      const position = Math.min(Number(before.position ?? state.paragraphs.length), state.paragraphs.length);
      await tx.scriptParagraph.updateMany({ where: { script_id: entry.script_id, position: { gte: position } }, data: { position: { increment: 1 } } });
      const speakerId = typeof before.speaker_id === "string" && state.speakers.some((row) => row.speaker_id === before.speaker_id) ? before.speaker_id : null;
      const chapterId = typeof before.chapter_id === "string" && state.chapterIds.has(before.chapter_id) ? before.chapter_id : null;
      const created = await tx.scriptParagraph.create({
        data: {
          paragraph_id: entry.paragraph_id ?? newId("script_paragraph"),
          script_id: entry.script_id,
          position,
          role: (before.role as string) ?? "body",
          text: before.text as string,
          word_count: wordsIn(before.text as string),
          speaker_id: speakerId,
          chapter_id: chapterId,
          locked: Boolean(before.locked),
          note: (before.note as string | null) ?? null,
          visual: before.visual ? (before.visual as Prisma.InputJsonValue) : Prisma.DbNull,
          playback_rate: (before.playback_rate as number | null) ?? null,
        },
      });
      await renumber(tx, entry.script_id);
      const restored = await tx.scriptParagraph.findUniqueOrThrow({ where: { paragraph_id: created.paragraph_id } });
      const undoEditId = await logUndo(tx, write, entry, { kind: "paragraph.insert", before: undefined, after: presentParagraph(restored), paragraphId: created.paragraph_id });
      return { undoEditId, paragraphId: created.paragraph_id, skippedLocked: [] };
    },
  };
}

function planUndoMove(entry: EditRow, state: UndoState, paragraph: ParagraphRow | undefined, before: Fields | null, after: Fields | null): UndoPlan {
  if (!paragraph) return blocked("gone", "The paragraph was deleted since.");
  if (paragraph.locked) return lockedSkip([paragraph.paragraph_id]);
  const predecessor = state.paragraphs[paragraph.position - 1]?.paragraph_id ?? null;
  if (after && (after.after_paragraph_id ?? null) !== predecessor) return blocked("changed_since", "The paragraph's place changed since this move; undo the newer entries first.");
  return {
    state: "ready",
    async apply(tx, write) {
      // Back after the paragraph it followed (first when it led), wherever that one is now; at its
      // old index when that paragraph is gone.
      const rest = state.paragraphs.filter((row) => row.paragraph_id !== paragraph.paragraph_id);
      const anchor = (before?.after_paragraph_id as string | null | undefined) ?? null;
      const anchorIndex = anchor === null ? -1 : rest.findIndex((row) => row.paragraph_id === anchor);
      const index = anchor === null ? 0 : anchorIndex >= 0 ? anchorIndex + 1 : Math.min(Number(before?.position ?? 0), rest.length);
      const position = await moveTo(tx, entry.script_id, paragraph.paragraph_id, index);
      const undoEditId = await logUndo(tx, write, entry, {
        before: { position: paragraph.position, after_paragraph_id: predecessor },
        after: { position, after_paragraph_id: index === 0 ? null : rest[index - 1]!.paragraph_id },
      });
      return { undoEditId, paragraphId: paragraph.paragraph_id, skippedLocked: [] };
    },
  };
}

function planUndoSpeakerAdd(entry: EditRow, state: UndoState, after: Fields | null): UndoPlan {
  const added = objectOf(after?.speaker) as SpeakerCopy | null;
  const speaker = added ? state.speakers.find((row) => row.speaker_id === added.speaker_id) : undefined;
  if (!speaker) return blocked("gone", "The speaker was removed since.");
  if (speaker.is_base) return blocked("not_undoable", "The base speaker can never be removed.");
  const lines = state.paragraphs.filter((row) => row.speaker_id === speaker.speaker_id);
  const given = new Set(Array.isArray(after?.paragraph_ids) ? (after.paragraph_ids as string[]) : []);
  const since = lines.filter((row) => !given.has(row.paragraph_id));
  if (since.length) return blocked("changed_since", `Lines were given to this speaker since (${since.map((row) => row.paragraph_id).join(", ")}); undo those first or use scripts.remove_speaker.`);
  const locked = lines.filter((row) => row.locked);
  if (locked.length) return lockedSkip(locked.map((row) => row.paragraph_id));
  return {
    state: "ready",
    async apply(tx, write) {
      const copy = speakerCopy(speaker);
      // Its lines go back to the base speaker (the relation sets them to null).
      await tx.scriptSpeaker.delete({ where: { speaker_id: speaker.speaker_id } });
      await renumberSpeakers(tx, entry.script_id);
      const undoEditId = await logUndo(tx, write, entry, { kind: "speaker.remove", before: { speaker: copy, paragraph_ids: lines.map((row) => row.paragraph_id) }, after: undefined });
      return { undoEditId, paragraphId: null, skippedLocked: [] };
    },
  };
}

function planUndoSpeakerRemove(entry: EditRow, state: UndoState, before: Fields | null): UndoPlan {
  const removed = objectOf(before?.speaker) as SpeakerCopy | null;
  if (!removed) return blocked("not_undoable", "This entry does not hold the removed speaker.");
  if (state.speakers.some((row) => row.speaker_id === removed.speaker_id)) return blocked("already_undone", "The speaker is in the cast again.");
  const name = removed.name.toLowerCase();
  if (state.speakers.some((row) => row.name.toLowerCase() === name)) return blocked("changed_since", `Another speaker is named '${removed.name}' since.`);
  if (state.speakers.length >= MAX_SPEAKERS) return blocked("changed_since", `The cast is full (${MAX_SPEAKERS} speakers).`);
  const ids = new Set(Array.isArray(before?.paragraph_ids) ? (before.paragraph_ids as string[]) : []);
  // Lines still with the base speaker come back; a locked one stays where it is (and is reported).
  const back = state.paragraphs.filter((row) => ids.has(row.paragraph_id) && row.speaker_id === null);
  return {
    state: "ready",
    async apply(tx, write) {
      const position = Math.max(1, Math.min(removed.position, state.speakers.length));
      await tx.scriptSpeaker.updateMany({ where: { script_id: entry.script_id, position: { gte: position } }, data: { position: { increment: 1 } } });
      const created = await tx.scriptSpeaker.create({
        data: {
          speaker_id: removed.speaker_id,
          script_id: entry.script_id,
          position,
          name: removed.name,
          persona: removed.persona ?? null,
          is_base: false,
          voice_ref: removed.voice_ref ?? null,
          voice_name: removed.voice_name ?? null,
          face_url: removed.face_url ?? null,
          face_aspect: removed.face_aspect ?? null,
        },
      });
      const unlocked = back.filter((row) => !row.locked).map((row) => row.paragraph_id);
      if (unlocked.length) await tx.scriptParagraph.updateMany({ where: { paragraph_id: { in: unlocked } }, data: { speaker_id: created.speaker_id } });
      await renumberSpeakers(tx, entry.script_id);
      const restored = await tx.scriptSpeaker.findUniqueOrThrow({ where: { speaker_id: created.speaker_id } });
      const undoEditId = await logUndo(tx, write, entry, { kind: "speaker.add", before: undefined, after: { speaker: speakerCopy(restored), paragraph_ids: unlocked } });
      return { undoEditId, paragraphId: null, skippedLocked: back.filter((row) => row.locked).map((row) => row.paragraph_id) };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// What an entry did, in a sentence (scripts.history)

const quote = (value: unknown) => (typeof value === "string" && value !== "" ? `"${opening(value)}"` : "nothing");

function fieldChanges(before: Fields | null, after: Fields | null, skip: readonly string[] = []): string {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter((field) => !skip.includes(field));
  return fields.map((field) => `${field.replace(/_/g, " ")} ${describeValue(before?.[field])} → ${describeValue(after?.[field])}`).join("; ");
}

/** A logged value as text: itself when it is a plain value, its JSON otherwise, "?" when absent. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return "?";
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(value);
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined || value === "") return "none";
  if (typeof value === "string") return `"${opening(value, 40)}"`;
  if (typeof value === "object") return Array.isArray(value) ? `[${value.length}]` : "set";
  return shown(value);
}

/** A human-readable line saying what an entry did. */
export function describeEdit(entry: EditRow, speakers: readonly { speaker_id: string; name: string }[]): string {
  const before = objectOf(entry.before);
  const after = objectOf(entry.after);
  const speakerName = (id: unknown) => (id === null || id === undefined ? "the base speaker" : speakers.find((row) => row.speaker_id === id)?.name ?? shown(id));
  let line: string;
  switch (entry.kind) {
    case "paragraph.text":
      line = `Reworded ${quote(before?.text)} to ${quote(after?.text)}`;
      break;
    case "paragraph.insert":
      line = `Inserted a paragraph at position ${shown(after?.position)}: ${quote(after?.text)}`;
      break;
    case "paragraph.delete":
      line = `Deleted the paragraph at position ${shown(before?.position)}: ${quote(before?.text)}`;
      break;
    case "paragraph.move":
      line = `Moved a paragraph from position ${shown(before?.position)} to ${shown(after?.position)}`;
      break;
    case "paragraph.role":
      line = `Role ${shown(before?.role)} → ${shown(after?.role)}`;
      break;
    case "paragraph.lock":
      line = after?.locked ? "Locked the paragraph" : "Unlocked the paragraph";
      break;
    case "paragraph.note":
      line = after?.note ? `Margin note set: ${quote(after.note)}` : "Margin note cleared";
      break;
    case "paragraph.visual":
      line = after?.visual ? "Visual direction set" : "Visual direction cleared";
      break;
    case "paragraph.speaker":
      line = `Line given from ${speakerName(before?.speaker_id)} to ${speakerName(after?.speaker_id)}`;
      break;
    case "meta":
      line = `Script ${fieldChanges(before, after)}`;
      break;
    case "speaker.add":
      line = `Speaker added: ${String((objectOf(after?.speaker)?.name as string | undefined) ?? "?")}`;
      break;
    case "speaker.remove":
      line = `Speaker removed: ${String((objectOf(before?.speaker)?.name as string | undefined) ?? "?")}, ${Array.isArray(before?.paragraph_ids) ? before.paragraph_ids.length : 0} line(s) back to the base speaker`;
      break;
    case "speaker.update":
    case "speaker.voice":
    case "speaker.face":
      line = `Speaker ${speakerName(after?.speaker_id ?? before?.speaker_id)}: ${fieldChanges(before, after, ["speaker_id"])}`;
      break;
    case "document.restore":
      line = `Restored the restore point ${shown(after?.snapshot_id)} (safety point ${shown(before?.snapshot_id)})`;
      break;
    default:
      line = `${entry.kind} by ${entry.action}`;
  }
  return entry.undoes_edit_id ? `Undo of ${entry.undoes_edit_id}: ${line}` : line;
}
