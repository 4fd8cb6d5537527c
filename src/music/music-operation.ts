// The music operation of music.generate (docs/operations.md): the song is asked of the music
// provider's queue; the provider's request id is saved as soon as it is accepted, so a retaken
// attempt polls that request instead of paying for a second song. The tracks are stored and served
// by signed links. The music record mirrors the operation:
//   pending ──► running ──► completed   music.completed (tracks hosted)
//                   └─────► failed      music.failed (the credits it reserved refunded)
import { z } from "zod";
import type { Tx } from "../db/transaction.js";
import type { Prisma } from "../generated/prisma/client.js";
import { recordEvent } from "../outbox/record-event.js";
import { defineOperationKind, OperationFailure, type OperationRow } from "../operations/kind.js";
import { presentRecord } from "../resources/selection.js";
import { storeMedia } from "../generations/index.js";
import type { FileService } from "../storage/from-config.js";
import { music } from "./resource.js";

export const musicInput = z.strictObject({
  prompt: z.string().optional(),
  lyrics: z.string().optional(),
  style: z.string().optional(),
  title: z.string().optional(),
  instrumental: z.boolean(),
});

/** A hosted track as the record keeps it; `key` stays internal (the record's links are re-signed from it). */
const trackShape = z.object({
  track_id: z.string(),
  index: z.number().int(),
  title: z.string().nullable(),
  url: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  duration_seconds: z.number().nullable(),
});
export type Track = z.output<typeof trackShape>;

const resultShape = z.object({ tracks: z.array(trackShape.extend({ key: z.string() })) });

/** The tracks of a finished operation, with fresh signed links. */
export function tracksOf(files: FileService, result: unknown): Track[] {
  const parsed = resultShape.safeParse(result);
  if (!parsed.success) return [];
  return parsed.data.tracks.map(({ key, ...track }) => ({ ...track, url: files.signedUrl(key) }));
}

async function emit(tx: Tx, type: string, row: Record<string, unknown> & { workspace_id: string }, extra: Record<string, unknown> = {}) {
  await recordEvent(tx, { workspaceId: row.workspace_id, type, livemode: true, data: { object: presentRecord(music, row), ...extra } });
}

async function moveMusic(tx: Tx, operation: OperationRow, from: string[], data: Prisma.MusicGenerationUpdateManyMutationInput) {
  const [row] = await tx.musicGeneration.updateManyAndReturn({ where: { generation_id: operation.subject_id, status: { in: from } }, data });
  return row;
}

export const musicOperation = defineOperationKind({
  kind: "music",
  queue: "music",
  input: musicInput,
  maxAttempts: 2,

  async onStart(tx, operation) {
    await moveMusic(tx, operation, ["pending"], { status: "running" });
  },

  async run(context, input) {
    const { operation, files } = context;
    const resume = (operation.checkpoint as { request_id?: string } | null)?.request_id;
    const song = await context.providers.get("music").run(
      { prompt: input.prompt, lyrics: input.lyrics, style: input.style, title: input.title, instrumental: input.instrumental },
      {
        resume,
        signal: context.signal,
        onSubmitted: (requestId) => context.checkpoint({ request_id: requestId }),
        onProgress: (percent) => context.progress(percent),
      },
    );
    if (song.outputs.length === 0) throw new OperationFailure("upstream_error", "The music model answered no track.");
    const tracks = [];
    for (const [index, output] of song.outputs.entries()) {
      const stored = await storeMedia(files, { folder: "music", workspaceId: operation.workspace_id, recordId: operation.subject_id, index }, output);
      tracks.push({
        track_id: `${operation.subject_id}_${index}`,
        index,
        title: input.title ?? null,
        key: stored.key,
        url: stored.url,
        content_type: stored.content_type,
        size_bytes: stored.size_bytes,
        duration_seconds: stored.duration_seconds,
      });
    }
    return { result: { tracks, request_id: song.requestId ?? resume ?? null } };
  },

  async onComplete(tx, operation, settlement, { files }) {
    const row = await moveMusic(tx, operation, ["running"], {
      status: "completed",
      tracks: tracksOf(files, operation.result),
      credits_consumed: settlement.creditsSpent,
      error_message: null,
    });
    if (row) await emit(tx, "music.completed", row);
  },

  async onFail(tx, operation, failure, settlement) {
    const row = await moveMusic(tx, operation, ["pending", "running"], {
      status: "failed",
      error_message: `${failure.code}: ${failure.message}`.slice(0, 2000),
      credits_consumed: settlement.creditsSpent,
    });
    if (row) await emit(tx, "music.failed", row, { error_code: failure.code, refunded_credits: settlement.creditsRefunded });
  },

  async onRetake(tx, operation) {
    await moveMusic(tx, operation, ["running"], { status: "pending" });
  },
});
