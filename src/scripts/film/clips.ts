// A filmed clip as the API shows it (scripts.clips, choose_clip, delete_clip).
import { z } from "zod";
import type { Prisma } from "../../generated/prisma/client.js";
import type { ExampleSetup } from "../../actions/framework/action.js";
import type { Tx } from "../../db/transaction.js";
import { ApiError } from "../../errors/api-error.js";
import type { GraphQLContext } from "../../graphql/context.js";
import type { FileService } from "../../storage/from-config.js";
import { lockScript } from "../document.js";
import { paragraphOf } from "../summary.js";

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

/**
 * The clip a choose or delete call names, with its paragraph, after locking the script: 404 when
 * the paragraph or the clip is not this script's.
 */
export async function lockedClipOf(tx: Tx, context: GraphQLContext, input: { script_id: string; paragraph_id: string; clip_id: string }) {
  await lockScript(tx, context, input.script_id);
  const paragraph = await paragraphOf(tx, input.script_id, input.paragraph_id);
  const clip = await tx.scriptClip.findFirst({ where: { clip_id: input.clip_id, paragraph_id: paragraph.paragraph_id } });
  if (!clip) throw new ApiError("not_found", `No clip '${input.clip_id}' of this paragraph.`, { param: "clip_id" });
  return { paragraph, clip };
}

/** A valid call naming a filmed clip (for the security suite and the docs): face, voice, film. */
export async function filmedClipExample(setup: ExampleSetup): Promise<Record<string, unknown>> {
  const script = await setup.action("scripts.create", { title: "Example" });
  const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Hello there." });
  await setup.action("scripts.set_speaker_face", { script_id: script.script_id, image_url: (await setup.image()).url });
  await setup.action("scripts.voice", { script_id: script.script_id, voice_ref: "local/en-us" });
  const filmed = await setup.action("scripts.film", { script_id: script.script_id, model_id: "local/still" });
  const clipId = (filmed.clips as { clip_id: string }[])[0]?.clip_id ?? "clip_missing";
  return { script_id: script.script_id, paragraph_id: (paragraph.paragraph as { paragraph_id: string }).paragraph_id, clip_id: clipId };
}
