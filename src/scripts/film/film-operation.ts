// The lip-sync operation of scripts.film (docs/scripts.md, "Filming and clips"): one operation per
// call films its clips one after the other. Per clip: the take's audio from storage, the speaker's
// photo fetched through the URL guard, the lip-sync model (local/still holds the photo over the
// recording), the video stored under clips/…; the clip row goes running → completed (it becomes
// the paragraph's chosen clip) or failed (its error kept, nothing charged for it). The hold is
// settled to the seconds of the clips made; a clip deleted while filming is skipped.
import { z } from "zod";
import type { Tx } from "../../db/transaction.js";
import { ApiError } from "../../errors/api-error.js";
import { imageFromUrl } from "../../providers/user-image.js";
import { defineOperationKind, type OperationRow } from "../../operations/kind.js";
import { extensionFor } from "../../providers/media-info.js";
import { putBytes } from "../../storage/storage.js";
import { readStored } from "../voice/audio.js";

/** Credits per second of clip (the catalog's price of scripts.film). */
export const CREDITS_PER_SECOND = 3;

/** Seconds a take is billed as a clip: its length rounded up, at least one. */
export const billedSeconds = (durationMs: number) => Math.max(1, Math.ceil(durationMs / 1000));

export const filmInput = z.strictObject({ clip_ids: z.array(z.string()).min(1) });

async function failRunning(tx: Tx, operation: OperationRow, message: string) {
  await tx.scriptClip.updateMany({ where: { operation_id: operation.operation_id, status: "running" }, data: { status: "failed", error_message: message.slice(0, 2000), completed_at: new Date() } });
}

export const filmOperation = defineOperationKind({
  kind: "script_film",
  queue: "lipsync",
  input: filmInput,
  maxAttempts: 2,

  async run(context, input) {
    const { prisma, files, outbound, operation } = context;
    let spent = 0;
    const made: string[] = [];
    for (const [index, clipId] of input.clip_ids.entries()) {
      const clip = await prisma.scriptClip.findUnique({ where: { clip_id: clipId } });
      if (!clip || clip.status !== "running") continue;
      const take = await prisma.scriptTake.findUnique({ where: { take_id: clip.take_id } });
      try {
        if (!take) throw new ApiError("invalid_request", "The recording was deleted before it was filmed.");
        const image = await imageFromUrl(outbound, clip.face_url, "face_url");
        const audio = { data: new Uint8Array(await readStored(files.storage, take.storage_key)), mediaType: take.content_type };
        const result = await context.providers.getModel("lipsync", clip.model).run({ image, audio }, { signal: context.signal });
        const video = result.outputs[0];
        if (!video) throw new ApiError("upstream_error", "The lip-sync model answered no video.");
        const key = `clips/${operation.workspace_id}/${clip.script_id}/${clip.clip_id}.${extensionFor(video.mediaType)}`;
        await putBytes(files.storage, key, video.data, video.mediaType);
        const credits = billedSeconds(take.duration_ms) * CREDITS_PER_SECOND;
        const durationMs = Math.round((video.durationSeconds ?? take.duration_ms / 1000) * 1000);
        const kept = await prisma.$transaction(async (tx) => {
          const [done] = await tx.scriptClip.updateManyAndReturn({ where: { clip_id: clip.clip_id, status: "running" }, data: { status: "completed", storage_key: key, duration_ms: durationMs, lip_synced: result.lipSynced ?? true, credits, completed_at: new Date() } });
          if (done) await tx.scriptParagraph.updateMany({ where: { paragraph_id: done.paragraph_id }, data: { chosen_clip_id: done.clip_id } });
          return Boolean(done);
        });
        // A clip deleted while it was filmed is not charged.
        if (kept) {
          spent += credits;
          made.push(clip.clip_id);
          await context.spent(spent);
        }
      } catch (error) {
        if (context.signal.aborted) throw error;
        const message = error instanceof Error ? error.message : String(error);
        await prisma.scriptClip.updateMany({ where: { clip_id: clip.clip_id, status: "running" }, data: { status: "failed", error_message: message.slice(0, 2000), completed_at: new Date() } });
      }
      context.progress(((index + 1) / input.clip_ids.length) * 100);
    }
    return { result: { clip_ids: made }, creditsSpent: spent };
  },

  async onComplete() {},

  async onFail(tx, operation, failure) {
    await failRunning(tx, operation, `${failure.code}: ${failure.message}`);
  },

  async onCancel(tx, operation) {
    await failRunning(tx, operation, "canceled");
  },
});
