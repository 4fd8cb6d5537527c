// What the free analyses and the export read of a script, in one load: the document, the running
// order (measured from recordings where they exist, estimated otherwise), the speakers' and
// chapters' names, and the workspace's style rules.
import type { Tx } from "../../db/transaction.js";
import type { GraphQLContext } from "../../graphql/context.js";
import type { PrismaClient } from "../../generated/prisma/client.js";
import { loadDocument, readScript, type ScriptDocument } from "../document.js";
import { chosenRecordings, type Recording } from "../recordings.js";
import { workspaceRules, type StyleRuleRow } from "../style-rules.js";
import { languageCode, rateOf, timecode, timeline, type TimedParagraph } from "../timing.js";

export type ParagraphRow = ScriptDocument["paragraphs"][number];

export interface ViewParagraph {
  row: ParagraphRow;
  timing: TimedParagraph;
  timecode: string;
  speaker_name: string;
  chapter_title: string | null;
  recording: Recording | null;
}

export interface ScriptView {
  document: ScriptDocument;
  paragraphs: ViewParagraph[];
  rules: StyleRuleRow[];
  /** Primary language subtag (`en`). */
  language: string;
  rate: ReturnType<typeof rateOf>;
  total_ms: number;
  target_ms: number | null;
  /** Speakers who have at least one line (the base speaker takes unassigned ones). */
  speakers_in_use: number;
}

/** The caller's script (404 / 403 otherwise) with everything the analyses read. */
export async function loadView(client: PrismaClient | Tx, context: GraphQLContext, scriptId: string): Promise<ScriptView> {
  await readScript(client, context, scriptId);
  const [document, recordings, rules] = await Promise.all([loadDocument(client, scriptId), chosenRecordings(client, scriptId), workspaceRules(client, context.auth.workspaceId)]);
  const timed = timeline(document.paragraphs, document.script.language, recordings);
  const base = document.speakers.find((speaker) => speaker.is_base) ?? document.speakers[0];
  const speakerNames = new Map(document.speakers.map((speaker) => [speaker.speaker_id, speaker.name]));
  const chapterTitles = new Map(document.chapters.map((chapter) => [chapter.chapter_id, chapter.title]));
  const paragraphs = document.paragraphs.map((row, index) => ({
    row,
    timing: timed[index]!,
    timecode: timecode(timed[index]!.start_ms),
    speaker_name: (row.speaker_id && speakerNames.get(row.speaker_id)) || base?.name || "Narrator",
    chapter_title: row.chapter_id ? (chapterTitles.get(row.chapter_id) ?? null) : null,
    recording: recordings.get(row.paragraph_id) ?? null,
  }));
  return {
    document,
    paragraphs,
    rules,
    language: languageCode(document.script.language),
    rate: rateOf(document.script.language),
    total_ms: timed.at(-1)?.end_ms ?? 0,
    target_ms: document.script.target_duration_ms,
    speakers_in_use: new Set(paragraphs.map((paragraph) => paragraph.speaker_name)).size,
  };
}
