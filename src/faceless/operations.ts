// The operations of faceless videos (docs/operations.md), each driving one video (its subject):
// - faceless_audio (faceless.generate_audio): voices the scenes it names one after the other; the
//   hold is settled to the scenes voiced (2 credits each), a failure keeps what was voiced.
// - faceless_visual (faceless.generate_video): films one scene's clip through the video provider's
//   queue; the provider's request id is saved so a retaken attempt polls instead of paying twice.
// Each scene is written as soon as it is made (src/faceless/video.ts, under a row lock), so the
// video's composition follows; `faceless_status` shows voicing / drawing while they run, then
// ready (every scene voiced and drawn), draft or failed. faceless.check_status reads them.
import { z } from "zod";
import { defineOperationKind, type OperationRow } from "../operations/kind.js";
import type { Tx } from "../db/transaction.js";
import { filmClip, voiceSettingsOf, voiceText } from "./media.js";
import { changeScenes, parseScenes, setFacelessStatus } from "./video.js";

/** Credits of one scene voiced (the catalog's price of faceless.generate_audio, per item). */
export const CREDITS_PER_SCENE_VOICED = 2;

/** Operation kinds faceless.check_status reports. */
export const FACELESS_KINDS = ["faceless_audio", "faceless_visual", "faceless_pipeline"] as const;

/**
 * The moves of a kind whose record shows one status: `running` when claimed, `failed` when it
 * fails or is canceled; completion leaves the status the work itself wrote.
 */
export function statusMoves(set: (tx: Tx, subjectId: string, status: string) => Promise<unknown>, running: string) {
  return {
    async onStart(tx: Tx, operation: OperationRow) {
      await set(tx, operation.subject_id, running);
    },
    async onComplete() {},
    async onFail(tx: Tx, operation: OperationRow) {
      await set(tx, operation.subject_id, "failed");
    },
    async onCancel(tx: Tx, operation: OperationRow) {
      await set(tx, operation.subject_id, "failed");
    },
  };
}

const audioInput = z.strictObject({
  scene_ids: z.array(z.string()).min(1),
  voice_settings: z.record(z.string(), z.json()).nullable(),
  language: z.string().nullable(),
  format: z.string(),
});

export const facelessAudioOperation = defineOperationKind({
  kind: "faceless_audio",
  queue: "speech",
  input: audioInput,
  maxAttempts: 2,
  ...statusMoves(setFacelessStatus, "voicing"),
  async run(context, input) {
    const { prisma, files, operation } = context;
    const videoId = operation.subject_id;
    const video = await prisma.video.findUnique({ where: { video_id: videoId }, select: { faceless_voice_settings: true, video_lang: true } });
    const settings = voiceSettingsOf({ language: input.language ?? video?.video_lang ?? undefined }, video?.faceless_voice_settings, input.voice_settings);
    const voiced: string[] = [];
    for (const [index, sceneId] of input.scene_ids.entries()) {
      const current = await prisma.video.findUnique({ where: { video_id: videoId }, select: { faceless_scenes: true } });
      const scene = parseScenes(current?.faceless_scenes).find((item) => item.scene_id === sceneId);
      if (!scene) continue; // removed since the call: not voiced, not charged
      if (scene.audio?.key.includes(operation.operation_id)) {
        // Voiced by an earlier attempt of this operation (a retake): kept, not voiced twice.
        voiced.push(sceneId);
        continue;
      }
      const audio = await voiceText(context.providers, files, `faceless/${operation.workspace_id}/${videoId}/${sceneId}-voice-${operation.operation_id}`, scene.text, settings, context.signal);
      const last = index === input.scene_ids.length - 1;
      await changeScenes(prisma, videoId, files, (item) => (item.scene_id === sceneId ? { ...item, audio } : item), last ? undefined : () => "voicing");
      voiced.push(sceneId);
      await context.spent(voiced.length * CREDITS_PER_SCENE_VOICED);
      context.progress(((index + 1) / input.scene_ids.length) * 100);
    }
    // The status leaves `voicing` even when the last scene was gone.
    await changeScenes(prisma, videoId, files, (item) => item);
    return { result: { scene_ids: voiced }, creditsSpent: voiced.length * CREDITS_PER_SCENE_VOICED };
  },
});

const visualInput = z.strictObject({ scene_id: z.string(), prompt: z.string(), format: z.string() });

export const facelessVisualOperation = defineOperationKind({
  kind: "faceless_visual",
  queue: "video",
  input: visualInput,
  maxAttempts: 2,
  ...statusMoves(setFacelessStatus, "drawing"),
  async run(context, input) {
    const { prisma, files, operation } = context;
    const videoId = operation.subject_id;
    const resume = (operation.checkpoint as { request_id?: string } | null)?.request_id;
    const visual = await filmClip(context.providers, files, `faceless/${operation.workspace_id}/${videoId}/${input.scene_id}-clip-${operation.operation_id}`, input.prompt, input.format, {
      signal: context.signal,
      resume,
      onSubmitted: (requestId) => context.checkpoint({ request_id: requestId }),
      onProgress: (percent) => context.progress(percent),
    });
    const scenes = await changeScenes(prisma, videoId, files, (item) => (item.scene_id === input.scene_id ? { ...item, visual, visual_prompt: input.prompt } : item));
    return { result: { scene_id: input.scene_id, kept: scenes.some((item) => item.scene_id === input.scene_id), url: visual.url } };
  },
});
