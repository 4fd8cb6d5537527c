// scripts.to_video (catalog 4.10): the hand-over. Creates a video whose composition has one scene
// per paragraph, in the running order (docs/scripts.md, "Hand-over"): each scene lasts its
// paragraph's chosen take played at its pace (estimated from the words while it has none, and
// then silent), and carries its recording as an audio layer, its words as a caption, and its
// chosen clip where one exists (listed on the scene; the composition format has no video layer
// yet). renders.create on the video gives an MP4 as long as scripts.narration's runtime when every
// paragraph is voiced. A paragraph with a stored pace other than 1 gets a re-timed copy of its
// take (ffmpeg atempo, pitch kept), since the composition plays audio as it is.
//
// A model call without a provider: the audio work runs outside any transaction, then one
// transaction creates the video (video.created), links it to the script and spends 2 credits.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, idempotencyKey, label, request } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { putBytes } from "../../storage/storage.js";
import { recordSchema } from "../../resources/record-schema.js";
import { fullSelection, presentRecord } from "../../resources/selection.js";
import { createRecordIn } from "../../resources/service.js";
import { validationFailed } from "../../validation/issues.js";
import { VIDEO_FORMATS } from "../../contract.js";
import { drawableText, videos } from "../../video-model/index.js";
import { lockScript, readScript } from "../document.js";
import { chosenRecordings } from "../recordings.js";
import { echoedRequest } from "../summary.js";
import { timeline } from "../timing.js";
import { readStored, retimed } from "../voice/audio.js";
import { HANDOVER_LINK_SECONDS } from "../file-orphans.js";

/** The composition format's limit (src/renders/composition.ts). */
const MAX_SECONDS = 600;
const CAPTION_CHARACTERS = 90;

const sceneShape = z.object({
  scene_index: z.number().int(),
  paragraph_id: z.string(),
  start_ms: z.number().int(),
  end_ms: z.number().int(),
  duration_ms: z.number().int(),
  source: z.enum(["recording", "estimate"]),
  recording: z.object({ take_id: z.string(), url: z.string(), recorded_ms: z.number().int(), rate: z.number() }).nullable(),
  clip: z.object({ clip_id: z.string(), url: z.string() }).nullable(),
  caption: z.string(),
});

function caption(text: string): string {
  const flat = text.replace(/\s+/gu, " ").trim();
  return flat.length <= CAPTION_CHARACTERS ? flat || " " : `${flat.slice(0, CAPTION_CHARACTERS - 1).trimEnd()}…`;
}

export default defineAction({
  name: "scripts.to_video",
  method: "POST",
  scopes: ["scripts:execute"],
  credits: true,
  input: z.strictObject({
    script_id: id(),
    format: label().optional(),
    request: request().optional(),
    idempotency_key: idempotencyKey().optional(),
  }),
  price: { credits: 2, per: "call" },
  weight: 2,
  purpose: "one scene per paragraph, each carrying its recording where one exists",
  mode: "model",
  output: z.object({
    object: z.literal("script_video"),
    script_id: z.string(),
    video_id: z.string(),
    video_format: z.string(),
    runtime_ms: z.number().int(),
    scenes: z.array(sceneShape),
    voiced: z.number().int().describe("Scenes carrying a recording."),
    unvoiced: z.array(z.string()).describe("Paragraphs without a take: their scenes are silent, timed from their words."),
    video: recordSchema(videos),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Hello there." });
    return { script_id: script.script_id };
  },
  async check({ graphql }, input) {
    if (input.format !== undefined && !(VIDEO_FORMATS as readonly string[]).includes(input.format)) {
      throw validationFailed([{ path: "format", message: `Must be one of: ${VIDEO_FORMATS.join(", ")}.`, type: "any.only", allowed: [...VIDEO_FORMATS] }]);
    }
    const script = await readScript(graphql.prisma, graphql, input.script_id);
    if ((await graphql.prisma.scriptParagraph.count({ where: { script_id: script.script_id } })) === 0) {
      throw new ApiError("invalid_request", "The script has no paragraphs to hand over.", { param: "script_id" });
    }
  },
  async run({ db, graphql, files, commit }, input) {
    const script = await readScript(db, graphql, input.script_id);
    const [paragraphs, recordings, clips] = await Promise.all([
      db.scriptParagraph.findMany({ where: { script_id: script.script_id }, orderBy: { position: "asc" } }),
      chosenRecordings(db, script.script_id),
      db.scriptClip.findMany({ where: { script_id: script.script_id, status: "completed" } }),
    ]);
    const order = timeline(paragraphs, script.language, recordings);
    const runtime = order.at(-1)?.end_ms ?? 0;
    if (runtime > MAX_SECONDS * 1000) {
      throw new ApiError("invalid_request", `The script runs ${Math.round(runtime / 1000)} s; a video composition holds at most ${MAX_SECONDS} s.`, { param: "script_id", details: { runtime_ms: runtime, max_ms: MAX_SECONDS * 1000 } });
    }
    const format = (input.format ?? script.format ?? "landscape") as (typeof VIDEO_FORMATS)[number];
    const videoFormat = (VIDEO_FORMATS as readonly string[]).includes(format) ? format : "landscape";
    const scenes: z.input<typeof sceneShape>[] = [];
    const layers: Record<string, unknown>[] = [];
    for (const [index, timed] of order.entries()) {
      const paragraph = paragraphs[index]!;
      const recording = recordings.get(paragraph.paragraph_id);
      const clip = clips.find((row) => row.clip_id === paragraph.chosen_clip_id && row.storage_key);
      let audio: { take_id: string; url: string; recorded_ms: number; rate: number } | null = null;
      if (recording) {
        const rate = paragraph.playback_rate ?? 1;
        let key = recording.storage_key;
        if (rate !== 1) {
          key = `handover/${graphql.auth.workspaceId}/${script.script_id}/${recording.take_id}-x${rate.toFixed(3)}.wav`;
          if (!(await files.storage.stat(key))) {
            await putBytes(files.storage, key, await retimed(await readStored(files.storage, recording.storage_key), recording.content_type, rate), "audio/wav");
          }
        }
        audio = { take_id: recording.take_id, url: files.signedUrl(key, HANDOVER_LINK_SECONDS), recorded_ms: recording.duration_ms, rate };
      }
      const start = timed.start_ms / 1000;
      const end = timed.end_ms / 1000;
      if (end > start) {
        // The take itself by reference (read from storage by the render, whatever the service's
        // address); a re-timed copy has no record of its own, so its signed link, which the render
        // also reads from storage.
        if (audio) layers.push({ type: "audio", start, end, src: audio.rate === 1 ? `take:${audio.take_id}` : audio.url });
        // In a font that draws the paragraph's script (a Japanese script gets Noto Sans CJK JP).
        const shown = drawableText(caption(paragraph.text));
        layers.push({ type: "text", start, end, text: shown.text, font: shown.font, font_size: 48, box_color: "#00000099", y: "center", auto_fit: true });
      }
      scenes.push({
        scene_index: index,
        paragraph_id: paragraph.paragraph_id,
        start_ms: timed.start_ms,
        end_ms: timed.end_ms,
        duration_ms: timed.duration_ms,
        source: timed.source,
        recording: audio,
        clip: clip ? { clip_id: clip.clip_id, url: files.signedUrl(clip.storage_key!, HANDOVER_LINK_SECONDS) } : null,
        caption: caption(paragraph.text),
      });
    }
    const composition = { duration: Math.max(runtime, 1) / 1000, fps: 30, background_color: "#101820", layers };
    return commit(async (tx) => {
      await lockScript(tx, graphql, script.script_id);
      const video = await createRecordIn(tx, graphql, videos, { video_name: script.title ?? "Script", video_format: videoFormat, video_lang: script.language ?? undefined, composition, blocks: scenes }, { select: fullSelection(videos) });
      await tx.script.update({ where: { script_id: script.script_id }, data: { video_id: video.video_id as string } });
      return {
        object: "script_video" as const,
        script_id: script.script_id,
        video_id: video.video_id as string,
        video_format: videoFormat,
        runtime_ms: runtime,
        scenes,
        voiced: scenes.filter((scene) => scene.recording).length,
        unvoiced: scenes.filter((scene) => !scene.recording).map((scene) => scene.paragraph_id),
        video: presentRecord(videos, video),
        request: input.request ?? null,
      };
    });
  },
});
