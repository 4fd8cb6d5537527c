// The timeline_audio operation of timeline.generate_audio (docs/timeline.md): voices the blocks it
// names one after the other through the speech provider (espeak-ng offline by default; the voice of
// each block from the video's voice_settings_map by its voice_key), the same voicing as faceless
// scenes (src/faceless/media.ts `voiceText`: stored through the file service, measured by ffprobe).
// After each block one transaction locks the video and writes it back:
//   - the block: audio_url, audio_key, audio_text (what the audio says), audio_duration and
//     duration (the measured seconds);
//   - the alignment: every block's start laid out again (pauses included) and every group's
//     start/duration following its blocks (src/timeline/sync.ts, as timeline.sync_voice);
//   - the composition: an `audio` layer per voiced block at its start (the video's other layers
//     kept; a video without a composition gets one as long as its blocks), so renders.create plays
//     the voice-over;
// with a `video.updated` event in the same transaction. The hold (2 credits a block) is settled to
// the blocks voiced; a failure keeps what was voiced. A retaken attempt keeps the blocks its
// operation already voiced (their audio_key holds the operation's id) and does not voice them twice.
import { z } from "zod";
import type { Tx } from "../db/transaction.js";
import { voiceSettingsOf, voiceText, LINK_SECONDS } from "../faceless/index.js";
import type { Prisma } from "../generated/prisma/client.js";
import { defineOperationKind } from "../operations/kind.js";
import { recordUpdatedIn } from "../resources/service.js";
import { videos, blocksShape, type Block, compositionShape, MAX_DURATION_SECONDS, type StoredComposition, groupsShape } from "../video-model/index.js";
import { storedArray } from "./scope.js";
import { retimeBlocks, retimeGroups } from "./sync.js";

/** Credits of one block voiced (the catalog's price of timeline.generate_audio, per item). */
export const CREDITS_PER_BLOCK_VOICED = 2;

/** Whether a block is to be voiced: it has words, and its stored audio does not already say them. */
export function needsVoice(block: Block, force: boolean): boolean {
  if (!block.text?.trim()) return false;
  return force || !block.audio_url || block.audio_text !== block.text;
}

const audioInput = z.strictObject({
  block_ids: z.array(z.string()).min(1),
  voice_settings_map: z.record(z.string(), z.json()).nullable(),
  language: z.string().nullable(),
  force: z.boolean(),
});

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** The composition with one audio layer per voiced block at its start, replacing the previous voice-over layers. */
function withVoiceOver(stored: unknown, before: readonly Block[], after: readonly Block[]): StoredComposition | undefined {
  const parsed = stored === null || stored === undefined ? undefined : compositionShape.safeParse(stored);
  if (parsed && !parsed.success) return undefined; // an old composition the model cannot read is left alone
  const previous = new Set(before.map((block) => block.audio_url).filter((url): url is string => Boolean(url)));
  const voiced = after.filter((block) => block.audio_url && (block.duration ?? 0) > 0);
  const last = after.at(-1);
  const total = last ? (last.start ?? 0) + (last.duration ?? 0) + (last.pause_after ?? 0) : 0;
  const base = parsed?.data;
  const duration = round(Math.min(MAX_DURATION_SECONDS, Math.max(base?.duration ?? 0, total)));
  if (duration <= 0) return base;
  const kept = (base?.layers ?? []).filter((layer) => !(layer.type === "audio" && previous.has(layer.src)));
  const voice = voiced
    .filter((block) => (block.start ?? 0) < duration)
    .map((block) => ({ type: "audio" as const, start: block.start ?? 0, end: round(Math.min(duration, (block.start ?? 0) + block.duration!)), src: block.audio_url! }));
  return compositionShape.parse({ ...(base ?? {}), duration, layers: [...kept, ...voice] });
}

/** Writes the voiced block back under the video's row lock, re-reading what changed meanwhile. */
async function writeBlock(tx: Tx, videoId: string, blockId: string, audio: { url: string; key: string; duration_ms: number }, text: string) {
  await tx.$queryRaw`SELECT video_id FROM videos WHERE video_id = ${videoId} FOR UPDATE`;
  const video = await tx.video.findUnique({ where: { video_id: videoId }, select: { blocks: true, groups: true, composition: true } });
  if (!video) return false;
  const blocks = storedArray(blocksShape, video.blocks);
  const index = blocks.findIndex((block) => block.block_id === blockId);
  if (index < 0) return false; // removed meanwhile
  const seconds = audio.duration_ms / 1000;
  const updated = blocks.map((block, at) => (at === index ? { ...block, audio_url: audio.url, audio_key: audio.key, audio_text: text } : block));
  const measured = new Map(updated.flatMap((block, at) => (at === index ? [[at, seconds] as const] : [])));
  const retimed = retimeBlocks(updated, measured);
  const groups = retimeGroups(storedArray(groupsShape, video.groups), retimed);
  const composition = withVoiceOver(video.composition, blocks, retimed);
  const json = (value: unknown) => value as Prisma.InputJsonValue;
  const row = await tx.video.update({
    where: { video_id: videoId },
    data: { blocks: json(retimed), groups: json(groups), ...(composition && { composition: json(composition) }) },
  });
  await recordUpdatedIn(tx, videos, row.video_id);
  return true;
}

export const timelineAudioOperation = defineOperationKind({
  kind: "timeline_audio",
  queue: "speech",
  input: audioInput,
  maxAttempts: 2,
  async onComplete() {},
  async onFail() {},
  async run(context, input) {
    const { prisma, files, operation } = context;
    const videoId = operation.subject_id;
    const stored = await prisma.video.findUnique({ where: { video_id: videoId }, select: { voice_settings_map: true, video_lang: true } });
    const voices = { ...(stored?.voice_settings_map as Record<string, unknown> | null), ...input.voice_settings_map };
    const language = input.language ?? stored?.video_lang ?? undefined;
    const voiced: string[] = [];
    for (const [position, blockId] of input.block_ids.entries()) {
      const current = await prisma.video.findUnique({ where: { video_id: videoId }, select: { blocks: true } });
      const block = storedArray(blocksShape, current?.blocks).find((item) => item.block_id === blockId);
      if (block?.audio_key?.includes(operation.operation_id)) {
        voiced.push(blockId); // voiced by an earlier attempt of this operation (a retake): kept, not voiced twice
      } else if (block && needsVoice(block, input.force) && block.text) {
        const settings = voiceSettingsOf({ language }, voices.default, voices[block.voice_key ?? "default"]);
        const base = `timeline/${operation.workspace_id}/${videoId}/${blockId}-voice-${operation.operation_id}`;
        const audio = await voiceText(context.providers, files, base, block.text, settings, context.signal);
        const url = files.signedUrl(audio.key, LINK_SECONDS);
        if (await prisma.$transaction((tx) => writeBlock(tx, videoId, blockId, { ...audio, url }, block.text!))) voiced.push(blockId);
      }
      // A block removed, emptied or voiced elsewhere since the call is neither voiced nor charged.
      await context.spent(voiced.length * CREDITS_PER_BLOCK_VOICED);
      context.progress(((position + 1) / input.block_ids.length) * 100);
    }
    return { result: { block_ids: voiced }, creditsSpent: voiced.length * CREDITS_PER_BLOCK_VOICED };
  },
});
