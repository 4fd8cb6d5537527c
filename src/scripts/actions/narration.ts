// scripts.narration (catalog 4.10): the voice-over as it plays — each paragraph's chosen take in
// order with its file, its pace and where it starts, and the total runtime. A paragraph without a
// take is reported in `unrecorded` and takes no time: nothing is padded. Each recorded part plays
// at its paragraph's rate, or, when that is null, at the listener's `speed` (1 without it).
// `container` is accepted and echoed (the catalog gives it no meaning); files are listed as stored.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, label, request } from "../../actions/catalog/define.js";
import { readScript } from "../document.js";
import { chosenRecordings } from "../recordings.js";
import { echoedRequest } from "../summary.js";
import { timecode } from "../timing.js";
import { textHash } from "../voice/takes.js";

export default defineAction({
  name: "scripts.narration",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    speed: z.number().min(0.75).max(3).optional(),
    container: label().optional(),
    request: request().optional(),
  }),
  weight: 1,
  purpose:
    "chosen takes in order with file, pace and total runtime; unrecorded parts are reported, not padded",
  output: z.object({
    object: z.literal("script_narration"),
    script_id: z.string(),
    speed: z.number().describe("The listener's speed applied to paragraphs whose rate is null."),
    container: z.string().nullable(),
    runtime_ms: z.number().int().describe("Sum of the recorded parts as played; unrecorded paragraphs add nothing."),
    runtime: z.string(),
    complete: z.boolean().describe("Every paragraph has a chosen take."),
    parts: z.array(
      z.object({
        paragraph_id: z.string(),
        position: z.number().int(),
        take_id: z.string(),
        url: z.string().describe("A signed link to the take's audio."),
        content_type: z.string(),
        recorded_ms: z.number().int().describe("The take's own length."),
        playback_rate: z.number().nullable().describe("The paragraph's stored rate (null follows the listener)."),
        rate: z.number().describe("The rate it plays at."),
        start_ms: z.number().int(),
        duration_ms: z.number().int().describe("recorded_ms / rate."),
        stale: z.boolean(),
      }),
    ),
    unrecorded: z.array(z.object({ paragraph_id: z.string(), position: z.number().int(), words: z.number().int() })),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    return { script_id: script.script_id };
  },
  async run({ tx, graphql }, input) {
    await readScript(tx, graphql, input.script_id);
    const [paragraphs, recordings] = await Promise.all([
      tx.scriptParagraph.findMany({ where: { script_id: input.script_id }, orderBy: { position: "asc" } }),
      chosenRecordings(tx, input.script_id),
    ]);
    const speed = input.speed ?? 1;
    let clock = 0;
    const parts = [];
    const unrecorded = [];
    for (const paragraph of paragraphs) {
      const recording = recordings.get(paragraph.paragraph_id);
      if (!recording) {
        unrecorded.push({ paragraph_id: paragraph.paragraph_id, position: paragraph.position, words: paragraph.word_count });
        continue;
      }
      const rate = paragraph.playback_rate ?? speed;
      const duration = Math.round(recording.duration_ms / rate);
      parts.push({
        paragraph_id: paragraph.paragraph_id,
        position: paragraph.position,
        take_id: recording.take_id,
        url: graphql.services.files.signedUrl(recording.storage_key),
        content_type: recording.content_type,
        recorded_ms: recording.duration_ms,
        playback_rate: paragraph.playback_rate,
        rate,
        start_ms: clock,
        duration_ms: duration,
        stale: recording.text_hash !== textHash(paragraph.text),
      });
      clock += duration;
    }
    return {
      object: "script_narration" as const,
      script_id: input.script_id,
      speed,
      container: input.container ?? null,
      runtime_ms: clock,
      runtime: timecode(clock),
      complete: unrecorded.length === 0,
      parts,
      unrecorded,
      request: input.request ?? null,
    };
  },
});
