// scripts.to_video (catalog 4.10): the hand-over (docs/scripts.md, "Hand-over"). One scene per
// paragraph in the running order, each as long as its chosen take played at its pace (estimated
// from the words while it has none, and then silent), turned into a composition by the one scene
// builder (src/scenes/): the take as the voice, captions from the takes' word timings (karaoke by
// default), a picture per paragraph — its own `visual.src`, else its chosen filmed clip, else a
// shelf background picked by its words and varied — with Ken Burns on stills and a dissolve
// between paragraphs, the title card, an optional closing card, a ducked music bed, loudness
// normalised. Options come in `request` (src/scripts/handover.ts). The answer lists every scene
// with what it uses and why.
//
// The first hand-over creates the video (video.created) and links it to the script; the next ones
// update that video in place (same video_id, video.updated): a scene whose take, picture and
// timing are unchanged draws exactly as before, and the answer says which scenes changed.
//
// A model call without a provider: the audio work (a re-timed copy of a take whose pace is not 1)
// runs outside any transaction, then one transaction writes the video, links it and spends 2
// credits. A test key gets the quote and nothing is written.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, idempotencyKey, label, request } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import type { WordTiming } from "../../providers/types.js";
import { putBytes } from "../../storage/storage.js";
import { recordSchema } from "../../resources/record-schema.js";
import { fullSelection, presentRecord } from "../../resources/selection.js";
import { createRecordIn, updateRecordIn } from "../../resources/service.js";
import { validationFailed } from "../../validation/issues.js";
import { VIDEO_FORMATS } from "../../contract.js";
import { composeScenes, pickBackgrounds, type SceneVisual } from "../../scenes/index.js";
import { videos } from "../../video-model/index.js";
import { lockScript, readScript } from "../document.js";
import { mediaKindOf, parseHandoverOptions, requireMedia } from "../handover.js";
import { chosenRecordings } from "../recordings.js";
import { echoedRequest } from "../summary.js";
import { timeline } from "../timing.js";
import { readStored, retimed } from "../voice/audio.js";
import { estimatedWords } from "../voice/takes.js";
import { HANDOVER_LINK_SECONDS } from "../file-orphans.js";

/** The composition format's limit (src/renders/composition.ts). */
const MAX_SECONDS = 600;

const visualShape = z.object({
  from: z.enum(["paragraph", "clip", "background", "color"]).describe("paragraph: its own visual.src; clip: its chosen filmed clip; background: a shelf background; color: a plain colour (an empty shelf)."),
  media: z.enum(["image", "video", "color"]),
  src: z.string().nullable().describe("What the scene draws: a reference (asset:, generation:, background:) or a link."),
  ken_burns: z.boolean().describe("A still moves (slow zoom or pan)."),
  why: z.string().describe("Why this picture, e.g. \"background bg_shelf_ocean_gradient (its words: sea); no image model configured\"."),
});

const sceneShape = z.object({
  scene_index: z.number().int(),
  paragraph_id: z.string(),
  start_ms: z.number().int(),
  end_ms: z.number().int(),
  duration_ms: z.number().int(),
  source: z.enum(["recording", "estimate"]),
  recording: z.object({ take_id: z.string(), url: z.string(), recorded_ms: z.number().int(), rate: z.number() }).nullable(),
  clip: z.object({ clip_id: z.string(), url: z.string() }).nullable(),
  caption: z.string().describe("The words the captions speak."),
  words_source: z.enum(["provider", "estimated"]).describe("Where the captions' word timings come from: the take's synthesiser, or spread over the scene by word length."),
  visual: visualShape,
  changed: z.boolean().describe("Differs from the video's previous hand-over (its take, picture or timing); true on the first."),
});

type Scene = z.input<typeof sceneShape>;

const flat = (text: string) => text.replace(/\s+/gu, " ").trim();

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
    updated: z.boolean().describe("The script's video existed and was updated in place (video.updated); false: created (video.created)."),
    runtime_ms: z.number().int().describe("The narration's length; the video lasts this, plus the closing card when there is one."),
    duration_ms: z.number().int().describe("The composition's length."),
    scenes: z.array(sceneShape),
    changed_scenes: z.array(z.string()).describe("Paragraphs whose scene changed since the previous hand-over (all of them on the first)."),
    voiced: z.number().int().describe("Scenes carrying a recording."),
    unvoiced: z.array(z.string()).describe("Paragraphs without a take: their scenes are silent, timed from their words."),
    options: z.json().describe("The hand-over options used, defaults filled in."),
    video: recordSchema(videos),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Hello there." });
    return { script_id: script.script_id, request: { captions: "karaoke", transition: "dissolve" } };
  },
  async check({ graphql }, input) {
    if (input.format !== undefined && !(VIDEO_FORMATS as readonly string[]).includes(input.format)) {
      throw validationFailed([{ path: "format", message: `Must be one of: ${VIDEO_FORMATS.join(", ")}.`, type: "any.only", allowed: [...VIDEO_FORMATS] }]);
    }
    const options = parseHandoverOptions(input.request);
    const script = await readScript(graphql.prisma, graphql, input.script_id);
    if ((await graphql.prisma.scriptParagraph.count({ where: { script_id: script.script_id } })) === 0) {
      throw new ApiError("invalid_request", "The script has no paragraphs to hand over.", { param: "script_id" });
    }
    if (options.music_ref) await requireMedia(graphql.prisma, graphql.auth.workspaceId, options.music_ref, ["audio"], "request.music_ref");
  },
  async run({ db, graphql, files, commit }, input) {
    const options = parseHandoverOptions(input.request);
    const workspaceId = graphql.auth.workspaceId;
    const script = await readScript(db, graphql, input.script_id);
    const [paragraphs, recordings, clips, shelf] = await Promise.all([
      db.scriptParagraph.findMany({ where: { script_id: script.script_id }, orderBy: { position: "asc" } }),
      chosenRecordings(db, script.script_id),
      db.scriptClip.findMany({ where: { script_id: script.script_id, status: "completed" } }),
      db.background.findMany({ where: { OR: [{ workspace_id: null }, { workspace_id: workspaceId }], kind: { in: ["image", "video"] } }, orderBy: [{ sort_order: "asc" }, { background_ref: "asc" }], select: { background_ref: true, name: true, description: true, tags: true, kind: true } }),
    ]);
    const order = timeline(paragraphs, script.language, recordings);
    const runtime = order.at(-1)?.end_ms ?? 0;
    if (runtime > MAX_SECONDS * 1000) {
      throw new ApiError("invalid_request", `The script runs ${Math.round(runtime / 1000)} s; a video composition holds at most ${MAX_SECONDS} s.`, { param: "script_id", details: { runtime_ms: runtime, max_ms: MAX_SECONDS * 1000 } });
    }
    const format = (input.format ?? script.format ?? "landscape") as (typeof VIDEO_FORMATS)[number];
    const videoFormat = (VIDEO_FORMATS as readonly string[]).includes(format) ? format : "landscape";
    const takeWords = new Map(
      (await db.scriptTake.findMany({ where: { take_id: { in: [...recordings.values()].map((recording) => recording.take_id) } }, select: { take_id: true, words: true, words_source: true } })).map((take) => [take.take_id, take]),
    );
    const imageModel = graphql.services.providers.model("image");
    const noImage = !imageModel ? "no image model configured" : !options.generate_images ? "image generation not asked for (request.generate_images)" : "images are not generated by the hand-over yet";

    // Pictures: the paragraph's own, its filmed clip, else a shelf background by its words.
    const own = await Promise.all(paragraphs.map(async (paragraph) => {
      const src = (paragraph.visual as { src?: unknown } | null)?.src;
      if (typeof src !== "string") return null;
      const kind = await mediaKindOf(db, workspaceId, src);
      return kind === "image" || kind === "video" ? { src, kind } : null;
    }));
    const needing = paragraphs.filter((paragraph, index) => !own[index] && !clips.some((clip) => clip.clip_id === paragraph.chosen_clip_id && clip.storage_key));
    const picked = new Map(pickBackgrounds(needing.map((paragraph) => paragraph.text), shelf).map((pick, index) => [needing[index]!.paragraph_id, pick]));

    const scenes: Scene[] = [];
    const built: Parameters<typeof composeScenes>[0][number][] = [];
    for (const [index, timed] of order.entries()) {
      const paragraph = paragraphs[index]!;
      const recording = recordings.get(paragraph.paragraph_id);
      const clip = clips.find((row) => row.clip_id === paragraph.chosen_clip_id && row.storage_key);
      let audio: { take_id: string; url: string; recorded_ms: number; rate: number } | null = null;
      let voice: string | null = null;
      if (recording) {
        const rate = paragraph.playback_rate ?? 1;
        let key = recording.storage_key;
        if (rate !== 1) {
          key = `handover/${workspaceId}/${script.script_id}/${recording.take_id}-x${rate.toFixed(3)}.wav`;
          if (!(await files.storage.stat(key))) {
            await putBytes(files.storage, key, await retimed(await readStored(files.storage, recording.storage_key), recording.content_type, rate), "audio/wav");
          }
        }
        audio = { take_id: recording.take_id, url: files.signedUrl(key, HANDOVER_LINK_SECONDS), recorded_ms: recording.duration_ms, rate };
        // The take itself by reference (read from storage by the render, whatever the service's
        // address); a re-timed copy has no record of its own, so its signed link, which the
        // render also reads from storage.
        voice = rate === 1 ? `take:${recording.take_id}` : audio.url;
      }
      const seconds = timed.duration_ms / 1000;
      const take = recording ? takeWords.get(recording.take_id) : undefined;
      const stored = Array.isArray(take?.words) ? (take.words as unknown as WordTiming[]) : [];
      const rate = recording ? (paragraph.playback_rate ?? 1) : 1;
      const words = stored.length > 0 ? stored.map((word) => ({ word: word.word, start: word.start / rate, end: word.end / rate })) : estimatedWords(flat(paragraph.text), timed.duration_ms);
      const wordsSource = stored.length > 0 && take?.words_source === "provider" ? "provider" : "estimated";

      let visual: SceneVisual;
      let shown: z.input<typeof visualShape>;
      const ownVisual = own[index];
      const pick = picked.get(paragraph.paragraph_id);
      if (ownVisual) {
        visual = { kind: ownVisual.kind, src: ownVisual.src };
        shown = { from: "paragraph", media: ownVisual.kind, src: ownVisual.src, ken_burns: ownVisual.kind === "image", why: `the paragraph's own visual ${ownVisual.src}` };
      } else if (clip) {
        const src = files.signedUrl(clip.storage_key!, HANDOVER_LINK_SECONDS);
        visual = { kind: "video", src };
        shown = { from: "clip", media: "video", src, ken_burns: false, why: `its chosen filmed clip ${clip.clip_id}` };
      } else if (pick) {
        const src = `background:${pick.background.background_ref}`;
        const media = pick.background.kind === "video" ? "video" : "image";
        visual = { kind: media, src };
        const matched = pick.matched.length ? `its words: ${pick.matched.join(", ")}` : "varied from the scene before";
        shown = { from: "background", media, src, ken_burns: media === "image", why: `background ${pick.background.background_ref} (${matched}); ${noImage}` };
      } else {
        visual = { kind: "color" };
        shown = { from: "color", media: "color", src: null, ken_burns: false, why: `a plain colour: the background shelf is empty; ${noImage}` };
      }
      built.push({ duration: seconds, voice, words, visual });
      scenes.push({
        scene_index: index,
        paragraph_id: paragraph.paragraph_id,
        start_ms: timed.start_ms,
        end_ms: timed.end_ms,
        duration_ms: timed.duration_ms,
        source: timed.source,
        recording: audio,
        clip: clip ? { clip_id: clip.clip_id, url: files.signedUrl(clip.storage_key!, HANDOVER_LINK_SECONDS) } : null,
        caption: flat(paragraph.text),
        words_source: wordsSource,
        visual: shown,
        changed: true,
      });
    }
    const made = composeScenes(built, {
      format: videoFormat,
      captions: options.captions,
      transition: options.transition,
      title: options.title_card && script.title?.trim() ? script.title.trim() : null,
      closing: options.closing_card ?? null,
      music: options.music_ref ? { src: options.music_ref, volume: options.music_volume } : null,
    });
    const composition = made?.composition ?? { version: 2, duration: 0.1, fps: 30, background_color: "#101820", layers: [] };
    // What each scene is made of, kept on the video's blocks: the next hand-over compares them.
    const blocks = scenes.map((scene) => ({
      block_id: scene.paragraph_id,
      type: "narration",
      text: scene.caption,
      start: scene.start_ms / 1000,
      duration: scene.duration_ms / 1000,
      take_id: scene.recording?.take_id ?? null,
      rate: scene.recording?.rate ?? null,
      visual_src: scene.visual.from === "clip" ? `clip:${scene.clip?.clip_id}` : scene.visual.src,
    }));

    return commit(async (tx) => {
      await lockScript(tx, graphql, script.script_id);
      const current = await tx.script.findUniqueOrThrow({ where: { script_id: script.script_id }, select: { video_id: true } });
      const existing = current.video_id ? await tx.video.findFirst({ where: { video_id: current.video_id, workspace_id: workspaceId }, select: { video_id: true, blocks: true } }) : null;
      if (existing) {
        const before = new Map((Array.isArray(existing.blocks) ? (existing.blocks as Record<string, unknown>[]) : []).map((block) => [block.block_id, block]));
        for (const [index, scene] of scenes.entries()) {
          const previous = before.get(scene.paragraph_id);
          const now = blocks[index]!;
          scene.changed = !previous || (["start", "duration", "take_id", "rate", "visual_src", "text"] as const).some((field) => previous[field] !== now[field]);
        }
      }
      const record = { video_name: script.title ?? "Script", video_format: videoFormat, video_lang: script.language ?? undefined, composition, blocks };
      const video = existing
        ? await updateRecordIn(tx, graphql, videos, existing.video_id, record, { select: fullSelection(videos) })
        : await createRecordIn(tx, graphql, videos, record, { select: fullSelection(videos) });
      if (!existing) await tx.script.update({ where: { script_id: script.script_id }, data: { video_id: video.video_id as string } });
      return {
        object: "script_video" as const,
        script_id: script.script_id,
        video_id: video.video_id as string,
        video_format: videoFormat,
        updated: Boolean(existing),
        runtime_ms: runtime,
        duration_ms: Math.round((composition.duration as number) * 1000),
        scenes,
        changed_scenes: scenes.filter((scene) => scene.changed).map((scene) => scene.paragraph_id),
        voiced: scenes.filter((scene) => scene.recording).length,
        unvoiced: scenes.filter((scene) => !scene.recording).map((scene) => scene.paragraph_id),
        options,
        video: presentRecord(videos, video),
        request: input.request ?? null,
      };
    });
  },
});
