// scripts.export's formats (docs/scripts.md, "Export"): each a function of the script's view (its
// paragraphs in order with their running order, speakers and chapters) to the file's text.
import { stringify } from "csv-stringify/sync";
import { presentChapter, presentParagraph, presentSpeaker } from "../present.js";
import { timecode } from "../timing.js";
import type { ScriptView, ViewParagraph } from "../analysis/view.js";
import { wrapWords, toSrt, toVtt } from "./subtitles.js";

export const EXPORT_TYPES = {
  txt: { contentType: "text/plain; charset=utf-8", extension: "txt" },
  markdown: { contentType: "text/markdown; charset=utf-8", extension: "md" },
  srt: { contentType: "application/x-subrip; charset=utf-8", extension: "srt" },
  vtt: { contentType: "text/vtt; charset=utf-8", extension: "vtt" },
  teleprompter: { contentType: "text/plain; charset=utf-8", extension: "txt" },
  csv: { contentType: "text/csv; charset=utf-8", extension: "csv" },
  shotlist: { contentType: "text/plain; charset=utf-8", extension: "txt" },
  json: { contentType: "application/json; charset=utf-8", extension: "json" },
} as const;

export type ExportFormat = keyof typeof EXPORT_TYPES;

/** Characters on a teleprompter line. */
export const TELEPROMPTER_WIDTH = 32;

/** A paragraph's words as one block: blank lines inside it closed up. */
function block(text: string): string {
  return text.trim().replace(/\n\s*\n/gu, "\n");
}

/** Runs `each` over the paragraphs, calling `chapter` whenever a new chapter begins. */
function walk(view: ScriptView, chapter: (title: string) => void, each: (paragraph: ViewParagraph) => void): void {
  let current: string | null = null;
  for (const paragraph of view.paragraphs) {
    if (paragraph.row.chapter_id && paragraph.row.chapter_id !== current && paragraph.chapter_title) chapter(paragraph.chapter_title);
    current = paragraph.row.chapter_id;
    each(paragraph);
  }
}

/** Plain text: the title, chapter titles, paragraphs one block each; `Name: ` before each when several speak. */
function toTxt(view: ScriptView): string {
  const blocks: string[] = [];
  if (view.document.script.title) blocks.push(view.document.script.title);
  const voices = view.speakers_in_use > 1;
  walk(view, (title) => blocks.push(title), (paragraph) => blocks.push(`${voices ? `${paragraph.speaker_name}: ` : ""}${block(paragraph.row.text)}`));
  return `${blocks.join("\n\n")}\n`;
}

/** Characters markdown would read as markup, escaped with a backslash. */
function markdownText(text: string): string {
  return text
    .replace(/[\\`*_[\]<>#|~&]/g, "\\$&")
    .replace(/^(\s*)([-+=])/gmu, "$1\\$2")
    .replace(/^(\s*\d+)([.)])/gmu, "$1\\$2");
}

/** Markdown: `# title`, `## chapter`, paragraphs; `**Name:**` before each when several speak. */
function toMarkdown(view: ScriptView): string {
  const blocks: string[] = [];
  if (view.document.script.title) blocks.push(`# ${markdownText(view.document.script.title)}`);
  const voices = view.speakers_in_use > 1;
  walk(
    view,
    (title) => blocks.push(`## ${markdownText(title)}`),
    (paragraph) => blocks.push(`${voices ? `**${markdownText(paragraph.speaker_name)}:** ` : ""}${markdownText(block(paragraph.row.text))}`),
  );
  return `${blocks.join("\n\n")}\n`;
}

/** Lines of at most TELEPROMPTER_WIDTH characters (a longer word stands alone). */
function prompterLines(text: string): string[] {
  return text.split("\n").flatMap((line) => wrapWords(line, TELEPROMPTER_WIDTH));
}

/**
 * Teleprompter: short lines for reading from a glass. Each paragraph opens with a cue line
 * `[HH:MM:SS] SPEAKER`; chapters are `== TITLE ==`; a blank line between blocks.
 */
function toTeleprompter(view: ScriptView): string {
  const blocks: string[] = [];
  if (view.document.script.title) blocks.push(prompterLines(view.document.script.title.toUpperCase()).join("\n"));
  walk(
    view,
    (title) => blocks.push(prompterLines(`== ${title.toUpperCase()} ==`).join("\n")),
    (paragraph) => blocks.push([`[${paragraph.timecode.slice(0, 8)}] ${paragraph.speaker_name.toUpperCase()}`, ...prompterLines(block(paragraph.row.text))].join("\n")),
  );
  return `${blocks.join("\n\n")}\n`;
}

export const CSV_COLUMNS = [
  "position", "paragraph_id", "chapter", "role", "speaker", "start", "end", "start_ms", "end_ms", "duration_ms", "timing", "words", "text",
  "visual_direction", "visual_kind", "broll_keywords", "image_prompt", "note", "locked",
] as const;

/**
 * CSV (RFC 4180: CRLF, quoted where needed): a header, then one row per paragraph. A cell that
 * starts with =, +, -, @, tab or carriage return gets a leading ' so a spreadsheet never runs it
 * as a formula.
 */
function toCsv(view: ScriptView): string {
  const rows = view.paragraphs.map((paragraph) => {
    const visual = presentParagraph(paragraph.row).visual;
    return {
      position: paragraph.row.position,
      paragraph_id: paragraph.row.paragraph_id,
      chapter: paragraph.chapter_title ?? "",
      role: paragraph.row.role,
      speaker: paragraph.speaker_name,
      start: paragraph.timecode,
      end: timecode(paragraph.timing.end_ms),
      start_ms: paragraph.timing.start_ms,
      end_ms: paragraph.timing.end_ms,
      duration_ms: paragraph.timing.duration_ms,
      timing: paragraph.timing.source,
      words: paragraph.row.word_count,
      text: paragraph.row.text,
      visual_direction: visual?.direction ?? "",
      visual_kind: visual?.kind ?? "",
      broll_keywords: (visual?.broll_keywords ?? []).join("; "),
      image_prompt: visual?.image_prompt ?? "",
      note: paragraph.row.note ?? "",
      locked: paragraph.row.locked,
    };
  });
  return stringify(rows, { header: true, columns: [...CSV_COLUMNS], record_delimiter: "windows", escape_formulas: true, cast: { boolean: (value) => (value ? "true" : "false") } });
}

/**
 * Shot list: for the editor, one block per paragraph — `SHOT n | in | out | seconds`, then the
 * speaker, role and chapter, what is on screen, the b-roll keywords, the image prompt and the line.
 */
function toShotlist(view: ScriptView): string {
  const blocks = [`SHOT LIST: ${view.document.script.title ?? view.document.script.script_id}\nRuntime ${timecode(view.total_ms)} | ${view.paragraphs.length} shots`];
  for (const [index, paragraph] of view.paragraphs.entries()) {
    const visual = presentParagraph(paragraph.row).visual;
    const onScreen = visual?.direction ? `${visual.kind ? `(${visual.kind}) ` : ""}${visual.direction}` : "(not directed yet)";
    blocks.push(
      [
        `SHOT ${index + 1} | ${paragraph.timecode} | ${timecode(paragraph.timing.end_ms)} | ${(paragraph.timing.duration_ms / 1000).toFixed(1)} s`,
        `Speaker: ${paragraph.speaker_name} | Role: ${paragraph.row.role} | Chapter: ${paragraph.chapter_title ?? "-"}`,
        `On screen: ${onScreen.replace(/\s+/gu, " ")}`,
        `B-roll: ${visual?.broll_keywords.length ? visual.broll_keywords.join(", ") : "-"}`,
        `Image prompt: ${visual?.image_prompt ? visual.image_prompt.replace(/\s+/gu, " ") : "-"}`,
        `Line: ${paragraph.row.text.replace(/\s+/gu, " ").trim()}`,
      ].join("\n"),
    );
  }
  return `${blocks.join("\n\n")}\n`;
}

/** JSON: the meta, runtime, chapters, speakers and paragraphs with their running order. */
function toJson(view: ScriptView): string {
  const { script } = view.document;
  const document = {
    script_id: script.script_id,
    title: script.title,
    topic: script.topic,
    language: script.language,
    format: script.format,
    tone: script.tone,
    audience: script.audience,
    target_duration_ms: script.target_duration_ms,
    revision: script.revision,
    runtime_ms: view.total_ms,
    chapters: view.document.chapters.map(presentChapter),
    speakers: view.document.speakers.map(presentSpeaker),
    paragraphs: view.paragraphs.map((paragraph) => ({
      ...presentParagraph(paragraph.row),
      speaker_name: paragraph.speaker_name,
      chapter_title: paragraph.chapter_title,
      start_ms: paragraph.timing.start_ms,
      end_ms: paragraph.timing.end_ms,
      duration_ms: paragraph.timing.duration_ms,
      timecode: paragraph.timecode,
      timing: paragraph.timing.source,
    })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

export const EXPORTERS: Record<ExportFormat, (view: ScriptView) => string> = {
  txt: toTxt,
  markdown: toMarkdown,
  srt: toSrt,
  vtt: toVtt,
  teleprompter: toTeleprompter,
  csv: toCsv,
  shotlist: toShotlist,
  json: toJson,
};

/** A file name from the title (`why-cats-purr.srt`), or from the id when there is none. */
export function exportFilename(view: ScriptView, format: ExportFormat): string {
  const slug = (view.document.script.title ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  const base = slug || view.document.script.script_id;
  return `${base}${format === "teleprompter" ? ".teleprompter" : format === "shotlist" ? ".shotlist" : ""}.${EXPORT_TYPES[format].extension}`;
}
