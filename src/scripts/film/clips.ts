// A filmed clip as the API shows it (scripts.clips, choose_clip, delete_clip).
import { z } from "zod";
import type { Prisma } from "../../generated/prisma/client.js";
import type { FileService } from "../../storage/from-config.js";

export type ClipRow = Prisma.ScriptClipGetPayload<object>;

export const clipShape = z
  .object({
    clip_id: z.string(),
    paragraph_id: z.string(),
    take_id: z.string().describe("The recording it was filmed against."),
    chosen: z.boolean(),
    status: z.enum(["running", "completed", "failed"]),
    model: z.string(),
    lip_synced: z.boolean().nullable().describe("False: the photo held over the recording (local/still)."),
    duration_ms: z.number().int().nullable(),
    credits: z.number().int().describe("What it cost (never refunded)."),
    url: z.string().nullable().describe("A signed link to the video, once made."),
    error_message: z.string().nullable(),
    created_at: z.iso.datetime(),
    completed_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "ScriptClip", description: "A lip-synced clip of a paragraph." });

export function presentClip(row: ClipRow, files: FileService, chosenClipId: string | null): z.output<typeof clipShape> {
  return {
    clip_id: row.clip_id,
    paragraph_id: row.paragraph_id,
    take_id: row.take_id,
    chosen: row.clip_id === chosenClipId,
    status: row.status as "running" | "completed" | "failed",
    model: row.model,
    lip_synced: row.lip_synced,
    duration_ms: row.duration_ms,
    credits: row.credits,
    url: row.storage_key ? files.signedUrl(row.storage_key) : null,
    error_message: row.error_message,
    created_at: row.created_at.toISOString(),
    completed_at: row.completed_at?.toISOString() ?? null,
  };
}
