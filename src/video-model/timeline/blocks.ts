// The `blocks` field of a video: the timeline's blocks in order, each a piece of voice-over with
// its text, its audio and its measured length. The keys below are checked; other keys are kept as
// they are (editors store their own state on a block), so the field stays open to the editor.
import { z } from "zod";
import { mediaUrl } from "./composition.js";
import { timedWord } from "./words.js";

export const block = z
  .looseObject({
    block_id: z.string().min(1).max(100).optional().describe("The block's id, unique in the video; timeline actions address blocks by it."),
    group_id: z.string().min(1).max(100).optional().describe("The group (groups field) the block belongs to."),
    type: z.string().min(1).max(64).optional().describe("What the block is: narration, question, answer, title, …"),
    text: z.string().max(10_000).optional().describe("The words of the voice-over."),
    voice_key: z.string().max(100).optional().describe("Key into voice_settings_map; `default` when absent."),
    start: z.number().min(0).optional().describe("Seconds from the start of the video (set by timeline.sync_voice)."),
    duration: z.number().min(0).max(3600).optional().describe("Seconds; set from the real audio by timeline.generate_audio and timeline.sync_voice."),
    pause_after: z.number().min(0).max(60).optional().describe("Seconds of silence after the block."),
    audio_url: mediaUrl.nullable().optional().describe("The block's voice-over (signed link) once generated."),
    audio_key: z.string().max(1000).nullable().optional().describe("Storage key of the voice-over."),
    audio_text: z.string().max(10_000).nullable().optional().describe("The text the stored audio speaks: a block whose text still matches is not voiced again."),
    audio_duration: z.number().min(0).nullable().optional().describe("Seconds of the voice-over, measured with ffprobe."),
    words: z.array(timedWord).max(5000).optional().describe("Word timings of the voice-over (alignment), seconds from the block's start."),
  })
  .describe("A block of the timeline: text, voice-over and timing; unknown keys are kept.");

export const blocksShape = z.array(block).max(2000);
export type Block = z.output<typeof block>;
