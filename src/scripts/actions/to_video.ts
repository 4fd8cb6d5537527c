// scripts.to_video (catalog 4.10): the hand-over (docs/scripts.md, "Hand-over"). One scene per
// paragraph in the running order, each as long as its chosen take played at its pace (estimated
// from the words while it has none, and then silent), turned into a composition by the one scene
// builder (src/scenes/): the take as the voice, captions from the takes' word timings (karaoke by
// default), a picture per paragraph — its own `visual.src`, else its chosen filmed clip, else with
// `generate_images` an image drawn from its words (src/scripts/handover.ts, planPictures), else a
// shelf background picked by its words and varied — with Ken Burns on stills and a dissolve
// between paragraphs, the title card, an optional closing card, a ducked music bed, loudness
// normalised. Options come in `request` (src/scripts/handover.ts). The answer lists every scene
// with what it uses and why.
//
// The first hand-over creates the video (video.created) and links it to the script; the next ones
// update that video in place (same video_id, video.updated): a scene whose take, picture and
// timing are unchanged draws exactly as before, and the answer says which scenes changed.
//
// A model call: the slow work — a re-timed copy of a take whose pace is not 1, and with
// `generate_images` an image drawn by the image model for each paragraph with no picture of its
// own (two at a time, each stored as images are) — runs outside any transaction, then one
// transaction writes a completed generation per image drawn (generation.completed), the video, links
// it and settles the hold: 2 credits plus an image's price (4) per image drawn. Not an operation: the
// answer is the video itself, as scripts.voice answers its takes. A failed image fails the call: the
// images stored are removed and the hold is given back. A test key gets the quote (images
// included) and nothing is written.
import { eachSideBySide } from "../../side-by-side.js";
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
import { completedGeneration, storeMedia, type StoredMedia } from "../../generations/index.js";
import { IMAGE_PRICE } from "../../images/index.js";
import { newId } from "../../ids.js";
import type { PrismaClient } from "../../generated/prisma/client.js";
import type { GraphQLContext } from "../../graphql/context.js";
import { lockScript, readScript } from "../document.js";
import { flatText as flat, parseHandoverOptions, planPictures, requireMedia, type HandoverOptions } from "../handover.js";
import { chosenRecordings } from "../recordings.js";
import { echoedRequest } from "../summary.js";
import { timeline } from "../timing.js";
import { readStored, retimed } from "../voice/audio.js";
import { estimatedWords } from "../voice/takes.js";
import { HANDOVER_LINK_SECONDS } from "../file-orphans.js";

/** The composition format's limit (src/renders/composition.ts). */
const MAX_SECONDS = 600;
/** Credits of the hand-over itself; each image drawn adds IMAGE_PRICE. */
const HANDOVER_CREDITS = 2;
/** Images drawn at once. */
const PARALLEL = 2;
/** The image's shape for the video's format (sizes image models take). */
const IMAGE_SIZES = { landscape: "1536x1024", portrait: "1024x1536", square: "1024x1024" } as const;

/** What an image is drawn from: the paragraph's words, asked without lettering (the captions say them). */
const imagePrompt = (text: string) => `An illustration for this narration, with no text or lettering in it: ${flat(text)}`.slice(0, 4000);

/** The script, its paragraphs and chosen clips, and the plan of its pictures. */
async function readHandover(db: PrismaClient, graphql: GraphQLContext, scriptId: string, options: HandoverOptions) {
  const script = await readScript(db, graphql, scriptId);
  const [paragraphs, clips] = await Promise.all([
    db.scriptParagraph.findMany({ where: { script_id: script.script_id }, orderBy: { position: "asc" } }),
    db.scriptClip.findMany({ where: { script_id: script.script_id, status: "completed" } }),
  ]);
  const usable = new Set(clips.filter((clip) => clip.storage_key).map((clip) => clip.clip_id));
  const plan = await planPictures(db, graphql.auth.workspaceId, script, paragraphs, usable, options, Boolean(graphql.services.providers.model("image")));
  return { script, paragraphs, clips, plan };
}

const visualShape = z.object({
  from: z.enum(["paragraph", "clip", "generated", "background", "color"]).describe("paragraph: its own visual.src; clip: its chosen filmed clip; generated: an image the image model drew from its words (request.generate_images); background: a shelf background; color: a plain colour (an empty shelf)."),
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
  price: {
    credits: 1,
    per: "item",
    note: "2 for the hand-over, plus 4 (an image's price) per image drawn: with request.generate_images and an image model, one per paragraph with no picture of its own, no filmed clip and no image drawn for its unchanged words before; counted before anything is spent, and a test key is quoted it",
  },
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
    generated_images: z.array(z.string()).describe("Generations of the images drawn by this call (each billed at an image's price); images kept from an earlier hand-over are not listed."),
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
  async units({ graphql }, input) {
    const { plan } = await readHandover(graphql.prisma, graphql, input.script_id, parseHandoverOptions(input.request));
    return HANDOVER_CREDITS + IMAGE_PRICE * plan.toDraw.length;
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
  async run(context, input) {
    const { db, graphql, files, providers, commit, ran, cost } = context;
    const options = parseHandoverOptions(input.request);
    const workspaceId = graphql.auth.workspaceId;
    const { script, paragraphs, clips, plan } = await readHandover(db, graphql, input.script_id, options);
    const [recordings, shelf] = await Promise.all([
      chosenRecordings(db, script.script_id),
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
    // Images drawn now: as many as were priced (the script may have changed since it was quoted).
    const held = Math.max(0, Math.floor((cost - HANDOVER_CREDITS) / IMAGE_PRICE));
    const toDraw = plan.toDraw.slice(0, held);
    const unpriced = plan.toDraw.length > toDraw.length ? "the script changed after the call was priced: call again for its image" : "";
    const imageModelRef = graphql.services.providers.model("image")?.ref ?? null;
    const drawn = new Map<string, { generation_id: string; prompt: string; stored: StoredMedia; provider: string; model: string }>();
    if (toDraw.length > 0) {
      const image = providers.get("image");
      const size = IMAGE_SIZES[videoFormat];
      const stored: string[] = [];
      const draw = async (paragraphId: string) => {
        const paragraph = paragraphs.find((row) => row.paragraph_id === paragraphId)!;
        const generationId = newId("generation");
        const prompt = imagePrompt(paragraph.text);
        const result = await image.generate({ prompt, size, n: 1 });
        const output = result.images[0];
        if (!output) throw new ApiError("upstream_error", "The image model answered no image.", { details: { provider: result.meta.provider, reason: "invalid_answer" } });
        const file = await storeMedia(files, { folder: "generations", workspaceId, recordId: generationId, index: 0 }, output);
        stored.push(file.key);
        drawn.set(paragraphId, { generation_id: generationId, prompt, stored: file, provider: result.meta.provider, model: result.meta.model });
      };
      // After a failure no new image is begun, and the one still being drawn is waited for, so
      // that every file stored is removed before the call fails.
      try {
        await eachSideBySide(toDraw, PARALLEL, draw);
      } catch (error) {
        await Promise.all(stored.map((key) => files.storage.delete(key).catch(() => undefined)));
        throw error;
      }
    }

    // Pictures: the paragraph's own, its filmed clip, an image drawn from its words, else a shelf background by its words.
    const own = plan.own;
    const generatedOf = (paragraphId: string) => drawn.get(paragraphId)?.generation_id ?? plan.reused.get(paragraphId);
    const needing = paragraphs.filter((paragraph, index) => !own[index] && !clips.some((clip) => clip.clip_id === paragraph.chosen_clip_id && clip.storage_key) && !generatedOf(paragraph.paragraph_id));
    const picked = new Map(pickBackgrounds(needing.map((paragraph) => paragraph.text), shelf).map((pick, index) => [needing[index]!.paragraph_id, pick]));
    const noImage = (paragraphId: string) => plan.noImage || (plan.toDraw.includes(paragraphId) ? unpriced : "");

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
      const generated = generatedOf(paragraph.paragraph_id);
      if (ownVisual) {
        visual = { kind: ownVisual.kind, src: ownVisual.src };
        shown = { from: "paragraph", media: ownVisual.kind, src: ownVisual.src, ken_burns: ownVisual.kind === "image", why: `the paragraph's own visual ${ownVisual.src}` };
      } else if (clip) {
        const src = files.signedUrl(clip.storage_key!, HANDOVER_LINK_SECONDS);
        visual = { kind: "video", src };
        shown = { from: "clip", media: "video", src, ken_burns: false, why: `its chosen filmed clip ${clip.clip_id}` };
      } else if (generated) {
        const src = `generation:${generated}`;
        visual = { kind: "image", src };
        const earlier = drawn.has(paragraph.paragraph_id) ? "" : " (drawn at an earlier hand-over; its words are unchanged)";
        shown = { from: "generated", media: "image", src, ken_burns: true, why: `generated image ${generated}, from the paragraph's words${earlier}` };
      } else if (pick) {
        const src = `background:${pick.background.background_ref}`;
        const media = pick.background.kind === "video" ? "video" : "image";
        visual = { kind: media, src };
        const matched = pick.matched.length ? `its words: ${pick.matched.join(", ")}` : "varied from the scene before";
        shown = { from: "background", media, src, ken_burns: media === "image", why: `background ${pick.background.background_ref} (${matched}); ${noImage(paragraph.paragraph_id)}` };
      } else {
        visual = { kind: "color" };
        shown = { from: "color", media: "color", src: null, ken_burns: false, why: `a plain colour: the background shelf is empty; ${noImage(paragraph.paragraph_id)}` };
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
      visual_from: scene.visual.from,
    }));

    // Images drawn for a write that did not happen are nobody's: they go with it.
    const forget = async (error: unknown): Promise<never> => {
      await Promise.all([...drawn.values()].map((image) => files.storage.delete(image.stored.key).catch(() => undefined)));
      throw error;
    };
    return commit(async (tx) => {
      await lockScript(tx, graphql, script.script_id);
      // Each image drawn is a generation of its own, paid an image's price (the hold settles to what ran).
      for (const [paragraphId, image] of drawn) {
        const file = { key: image.stored.key, content_type: image.stored.content_type, size_bytes: image.stored.size_bytes, width: image.stored.width, height: image.stored.height };
        await completedGeneration(
          tx,
          context,
          { action: "scripts.to_video", agentType: "image", model: imageModelRef, prompt: image.prompt, metadata: { script_id: script.script_id, paragraph_id: paragraphId } },
          image.generation_id,
          { outputUrls: [image.stored.url], metadata: { provider: image.provider, model: image.model, files: [file] } },
          IMAGE_PRICE,
        );
      }
      ran(HANDOVER_CREDITS + IMAGE_PRICE * drawn.size);
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
        // In the script's order: images are drawn side by side and finish in any order.
        generated_images: toDraw.flatMap((paragraphId) => drawn.get(paragraphId)?.generation_id ?? []),
        voiced: scenes.filter((scene) => scene.recording).length,
        unvoiced: scenes.filter((scene) => !scene.recording).map((scene) => scene.paragraph_id),
        options,
        video: presentRecord(videos, video),
        request: input.request ?? null,
      };
    }).catch(forget);
  },
});
