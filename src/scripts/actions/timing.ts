// scripts.timing (catalog 4.8): the running order, a timecode per paragraph. Each paragraph lasts
// its chosen take where it has one (at its playback rate) and its estimate from the words
// otherwise (docs/scripts.md, "Timing"); paragraphs follow each other from 00:00:00.000. Free.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request } from "../../actions/catalog/define.js";
import { loadView } from "../analysis/view.js";
import { runtimeOf, runtimeShape } from "../analysis/report.js";
import { echoedRequest } from "../summary.js";
import { timecode } from "../timing.js";

export default defineAction({
  name: "scripts.timing",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({ script_id: id(), request: request().optional() }),
  weight: 1,
  purpose:
    "running order with a timecode per paragraph, measured from recordings or estimated from word count; free",
  output: z.object({
    object: z.literal("script_timing"),
    script_id: z.string(),
    paragraphs: z.array(
      z.object({
        paragraph_id: z.string(),
        position: z.number().int(),
        role: z.string(),
        speaker_name: z.string(),
        chapter_title: z.string().nullable(),
        words: z.number().int(),
        playback_rate: z.number().nullable(),
        start_ms: z.number().int(),
        duration_ms: z.number().int(),
        end_ms: z.number().int(),
        timecode: z.string().describe("start_ms as HH:MM:SS.mmm."),
        end_timecode: z.string(),
        source: z.string().describe("recording (the chosen take's length) or estimate (the words at the language's rate)."),
        stale: z.boolean().describe("The chosen take was recorded from other words than the paragraph has now."),
      }),
    ),
    runtime: runtimeShape,
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example", target_duration_ms: 60_000 });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Cats purr at around twenty-five beats a second.", role: "hook" });
    return { script_id: script.script_id };
  },
  async run({ tx, graphql }, input) {
    const view = await loadView(tx, graphql, input.script_id);
    return {
      object: "script_timing" as const,
      script_id: input.script_id,
      paragraphs: view.paragraphs.map((paragraph) => ({
        paragraph_id: paragraph.row.paragraph_id,
        position: paragraph.row.position,
        role: paragraph.row.role,
        speaker_name: paragraph.speaker_name,
        chapter_title: paragraph.chapter_title,
        words: paragraph.row.word_count,
        playback_rate: paragraph.row.playback_rate,
        start_ms: paragraph.timing.start_ms,
        duration_ms: paragraph.timing.duration_ms,
        end_ms: paragraph.timing.end_ms,
        timecode: paragraph.timecode,
        end_timecode: timecode(paragraph.timing.end_ms),
        source: paragraph.timing.source,
        stale: paragraph.timing.stale,
      })),
      runtime: runtimeOf(view),
      request: input.request ?? null,
    };
  },
});
