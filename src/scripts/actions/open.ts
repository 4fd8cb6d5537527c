// scripts.open (catalog 4.8): the whole document — paragraphs (id, role, speaker, lock, recording,
// words), chapters, cast, sources, research — and its runtime against the target. `include_text`
// false leaves the words out (the counts stay); `digest` gives each paragraph's opening words.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, request } from "../../actions/catalog/define.js";
import { loadDocument, readScript } from "../document.js";
import { chapterShape, paragraphShape, presentChapter, presentParagraph, presentSource, presentSpeaker, sourceShape, speakerShape } from "../present.js";
import { echoedRequest, presentScript, scriptSummaryShape } from "../summary.js";
import { chosenRecordings, type Recording } from "../recordings.js";
import { estimatedMs, rateOf } from "../timing.js";
import { textHash } from "../voice/takes.js";

/** Words of a paragraph's digest. */
const DIGEST_WORDS = 12;

/** What the document shows of a paragraph's chosen take. */
function recordingOf(take: Recording | undefined, text: string) {
  return take ? { take_id: take.take_id, voice_ref: take.voice_ref, duration_ms: take.duration_ms, stale: take.text_hash !== textHash(text) } : null;
}

export default defineAction({
  name: "scripts.open",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    include_text: flag().optional(),
    digest: flag().optional(),
    request: request().optional(),
  }),
  weight: 1,
  purpose:
    "whole document: paragraphs (id, role, speaker, lock, recording, words), chapters, cast, sources, research, runtime against target",
  output: z.object({
    object: z.literal("script_document"),
    script: scriptSummaryShape,
    paragraphs: z.array(
      paragraphShape.extend({
        text: z.string().nullable().describe("Null when include_text is false."),
        digest: z.string().nullable().describe("The opening words, with digest."),
        recording: z
          .object({
            take_id: z.string(),
            voice_ref: z.string(),
            duration_ms: z.number().int().describe("Measured by ffprobe on the file."),
            stale: z.boolean().describe("The paragraph's words changed since it was recorded."),
          })
          .nullable()
          .describe("The chosen take (scripts.voice, scripts.choose_take); null while unvoiced. scripts.takes has every take and its audio."),
        estimated_ms: z.number().int(),
      }),
    ),
    chapters: z.array(chapterShape),
    speakers: z.array(speakerShape),
    sources: z.array(sourceShape),
    research: z.array(sourceShape),
    runtime: z.object({
      estimated_ms: z.number().int().describe("From the words, at the language's speaking rate."),
      target_ms: z.number().int().nullable(),
      difference_ms: z.number().int().nullable().describe("Estimated minus target: positive runs long."),
      rate: z.object({ unit: z.string(), per_minute: z.number() }),
    }),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Hello there." });
    return { script_id: script.script_id };
  },
  async run({ tx, graphql }, input) {
    await readScript(tx, graphql, input.script_id);
    const document = await loadDocument(tx, input.script_id);
    const recordings = await chosenRecordings(tx, input.script_id);
    const sources = await tx.scriptSource.findMany({ where: { script_id: input.script_id }, orderBy: { created_at: "asc" } });
    const language = document.script.language;
    const paragraphs = document.paragraphs.map((row) => {
      const paragraph = presentParagraph(row);
      return {
        ...paragraph,
        text: input.include_text === false ? null : paragraph.text,
        digest: input.digest ? paragraph.text.split(/\s+/u).slice(0, DIGEST_WORDS).join(" ") : null,
        recording: recordingOf(recordings.get(row.paragraph_id), row.text),
        estimated_ms: estimatedMs(paragraph.text, language, paragraph.playback_rate),
      };
    });
    const estimated = paragraphs.reduce((sum, paragraph) => sum + paragraph.estimated_ms, 0);
    const target = document.script.target_duration_ms;
    return {
      object: "script_document" as const,
      script: presentScript(document.script),
      paragraphs,
      chapters: document.chapters.map(presentChapter),
      speakers: document.speakers.map(presentSpeaker),
      sources: sources.filter((row) => row.kind === "source").map(presentSource),
      research: sources.filter((row) => row.kind === "research").map(presentSource),
      runtime: { estimated_ms: estimated, target_ms: target, difference_ms: target === null ? null : estimated - target, rate: rateOf(language) },
      request: input.request ?? null,
    };
  },
});
