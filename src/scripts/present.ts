// The parts of a script document as the API shows them: the same shapes for the scripts resource's
// heavy fields (GET /api/v1/scripts/{id}?expand=paragraphs) and for the scripts.* actions.
import { z } from "zod";

/** What a paragraph's visual direction holds (scripts.set_paragraph_visual). */
export const visualShape = z
  .object({
    direction: z.string().nullable(),
    kind: z.string().nullable(),
    broll_keywords: z.array(z.string()),
    image_prompt: z.string().nullable(),
    src: z.string().nullable().describe("The picture shown while it is spoken (asset:<id>, generation:<id>, background:<ref> or an http(s) URL): the hand-over draws it first."),
  })
  .meta({ id: "ScriptVisual", description: "What is on screen while the paragraph is spoken." });

export const paragraphShape = z
  .object({
    paragraph_id: z.string(),
    position: z.number().int().describe("0-based place in the script."),
    role: z.string().describe("hook, intro, body, transition, example, punchline, cta or outro."),
    text: z.string(),
    word_count: z.number().int(),
    speaker_id: z.string().nullable().describe("Null: the base speaker."),
    chapter_id: z.string().nullable(),
    locked: z.boolean(),
    note: z.string().nullable().describe("Margin note: an instruction for later AI passes."),
    visual: visualShape.nullable(),
    playback_rate: z.number().nullable().describe("0.75 to 3; null follows the listener or export setting."),
  })
  .meta({ id: "ScriptParagraph", description: "A paragraph of a script." });

export const chapterShape = z
  .object({ chapter_id: z.string(), position: z.number().int(), title: z.string(), summary: z.string().nullable() })
  .meta({ id: "ScriptChapter", description: "A chapter of a script: it holds paragraphs." });

export const speakerShape = z
  .object({
    speaker_id: z.string(),
    position: z.number().int(),
    name: z.string(),
    persona: z.string().nullable(),
    is_base: z.boolean().describe("The base speaker receives every unassigned line and can never be removed."),
    voice_ref: z.string().nullable().describe("Null: the script's default voice."),
    voice_name: z.string().nullable(),
    face_url: z.string().nullable(),
    face_aspect: z.string().nullable(),
  })
  .meta({ id: "ScriptSpeaker", description: "A speaker of a script." });

export const noteShape = z
  .object({
    note_id: z.string(),
    paragraph_id: z.string().nullable(),
    author_name: z.string().nullable(),
    body: z.string(),
    status: z.string().describe("open, resolved or deleted."),
    created_at: z.iso.datetime(),
    resolved_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "ScriptNote", description: "A reviewer's note." });

export const sourceShape = z
  .object({
    source_id: z.string(),
    kind: z.string().describe("source (a page attached) or research (a fact filed by research)."),
    url: z.string().nullable(),
    title: z.string().nullable(),
    snippet: z.string().nullable(),
    status: z.string().describe("confirmed or unconfirmed."),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "ScriptSource", description: "A source attached to a script." });

export const snapshotSummaryShape = z
  .object({
    snapshot_id: z.string(),
    label: z.string().nullable(),
    reason: z.string().describe("auto (before a call's first write), manual or safety (before a restore)."),
    action: z.string().nullable(),
    word_count: z.number().int(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "ScriptSnapshotSummary", description: "A restore point of a script." });

type Row = Record<string, unknown>;
const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : (value as string | null) ?? null);

export function presentVisual(value: unknown): z.output<typeof visualShape> | null {
  if (!value || typeof value !== "object") return null;
  const visual = value as Row;
  return {
    direction: (visual.direction as string | null) ?? null,
    kind: (visual.kind as string | null) ?? null,
    broll_keywords: Array.isArray(visual.broll_keywords) ? (visual.broll_keywords as string[]) : [],
    image_prompt: (visual.image_prompt as string | null) ?? null,
    src: (visual.src as string | null) ?? null,
  };
}

export function presentParagraph(row: Row): z.output<typeof paragraphShape> {
  return {
    paragraph_id: row.paragraph_id as string,
    position: row.position as number,
    role: row.role as string,
    text: row.text as string,
    word_count: row.word_count as number,
    speaker_id: (row.speaker_id as string | null) ?? null,
    chapter_id: (row.chapter_id as string | null) ?? null,
    locked: row.locked as boolean,
    note: (row.note as string | null) ?? null,
    visual: presentVisual(row.visual),
    playback_rate: (row.playback_rate as number | null) ?? null,
  };
}

export function presentChapter(row: Row): z.output<typeof chapterShape> {
  return { chapter_id: row.chapter_id as string, position: row.position as number, title: row.title as string, summary: (row.summary as string | null) ?? null };
}

export function presentSpeaker(row: Row): z.output<typeof speakerShape> {
  return {
    speaker_id: row.speaker_id as string,
    position: row.position as number,
    name: row.name as string,
    persona: (row.persona as string | null) ?? null,
    is_base: row.is_base as boolean,
    voice_ref: (row.voice_ref as string | null) ?? null,
    voice_name: (row.voice_name as string | null) ?? null,
    face_url: (row.face_url as string | null) ?? null,
    face_aspect: (row.face_aspect as string | null) ?? null,
  };
}

export function presentNote(row: Row): z.output<typeof noteShape> {
  return {
    note_id: row.note_id as string,
    paragraph_id: (row.paragraph_id as string | null) ?? null,
    author_name: (row.author_name as string | null) ?? null,
    body: row.body as string,
    status: row.status as string,
    created_at: iso(row.created_at)!,
    resolved_at: iso(row.resolved_at),
  };
}

export function presentSource(row: Row): z.output<typeof sourceShape> {
  return {
    source_id: row.source_id as string,
    kind: row.kind as string,
    url: (row.url as string | null) ?? null,
    title: (row.title as string | null) ?? null,
    snippet: (row.snippet as string | null) ?? null,
    status: row.status as string,
    created_at: iso(row.created_at)!,
  };
}

export function presentSnapshotSummary(row: Row): z.output<typeof snapshotSummaryShape> {
  return {
    snapshot_id: row.snapshot_id as string,
    label: (row.label as string | null) ?? null,
    reason: row.reason as string,
    action: (row.action as string | null) ?? null,
    word_count: row.word_count as number,
    created_at: iso(row.created_at)!,
  };
}

export const editShape = z
  .object({
    edit_id: z.string(),
    paragraph_id: z.string().nullable().describe("The paragraph it changed; null for a change of the script itself (meta, cast, restore)."),
    action: z.string().describe("The action whose call made it."),
    kind: z.string().describe("paragraph.text, paragraph.insert, paragraph.delete, paragraph.move, paragraph.role, paragraph.lock, paragraph.note, paragraph.visual, paragraph.speaker, meta, speaker.add, speaker.update, speaker.remove, speaker.voice, speaker.face, document.restore, …"),
    before: z.json().nullable().describe("What the change replaced (null for an insert)."),
    after: z.json().nullable().describe("What the change left (null for a delete)."),
    undone_at: z.iso.datetime().nullable().describe("Set once scripts.undo_change undid it."),
    undoes_edit_id: z.string().nullable().describe("Written by scripts.undo_change: the entry this one undid (undoing this one redoes it)."),
    request_id: z.string().nullable(),
    key_id: z.string().nullable().describe("The API key whose call made it."),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "ScriptEdit", description: "An entry of a script's edit log, with enough before and after to undo it." });

export function presentEdit(row: Row): z.output<typeof editShape> {
  return {
    edit_id: row.edit_id as string,
    paragraph_id: (row.paragraph_id as string | null) ?? null,
    action: row.action as string,
    kind: row.kind as string,
    before: (row.before as z.output<typeof editShape>["before"]) ?? null,
    after: (row.after as z.output<typeof editShape>["after"]) ?? null,
    undone_at: iso(row.undone_at),
    undoes_edit_id: (row.undoes_edit_id as string | null) ?? null,
    request_id: (row.request_id as string | null) ?? null,
    key_id: (row.key_id as string | null) ?? null,
    created_at: iso(row.created_at)!,
  };
}
