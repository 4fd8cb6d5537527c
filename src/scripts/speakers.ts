// The cast of a script (docs/scripts.md, "Speakers"): addressing a speaker by id or by name, the
// base speaker, names unique within a script (ignoring case), positions dense with the base
// speaker first.
import type { Prisma } from "../generated/prisma/client.js";
import type { Tx } from "../db/transaction.js";
import { ApiError } from "../errors/api-error.js";
import { validationFailed } from "../validation/issues.js";

export type SpeakerRow = Prisma.ScriptSpeakerGetPayload<object>;

/** Speakers a script may have, the base speaker included. */
export const MAX_SPEAKERS = 50;

/** The script's base speaker (every script has one from scripts.create on). */
export async function baseSpeakerOf(tx: Tx, scriptId: string): Promise<SpeakerRow> {
  return tx.scriptSpeaker.findFirstOrThrow({ where: { script_id: scriptId, is_base: true } });
}

/**
 * The speaker named by `speaker_id`, or by `name` (ignoring case); with neither, the base speaker
 * when `fallback` is "base". Both sent must name the same speaker. 404 at the field that names
 * nobody in this script.
 */
export async function speakerOf(tx: Tx, scriptId: string, address: { speaker_id?: string; name?: string }, fallback: "base" | "none" = "none"): Promise<SpeakerRow> {
  const cast = await tx.scriptSpeaker.findMany({ where: { script_id: scriptId }, orderBy: { position: "asc" } });
  let speaker: SpeakerRow | undefined;
  if (address.speaker_id !== undefined) {
    speaker = cast.find((row) => row.speaker_id === address.speaker_id);
    if (!speaker) throw new ApiError("not_found", `No speaker '${address.speaker_id}' in this script.`, { param: "speaker_id" });
    if (address.name !== undefined && address.name.toLowerCase() !== speaker.name.toLowerCase()) {
      throw validationFailed([{ path: "name", message: `The speaker '${address.speaker_id}' is named '${speaker.name}', not '${address.name}'. Send one of speaker_id and name.`, type: "any.invalid" }]);
    }
    return speaker;
  }
  if (address.name !== undefined) {
    const wanted = address.name.toLowerCase();
    speaker = cast.find((row) => row.name === address.name) ?? cast.find((row) => row.name.toLowerCase() === wanted);
    if (!speaker) {
      throw new ApiError("not_found", `No speaker named '${address.name}' in this script.`, { param: "name", details: { cast: cast.map((row) => row.name) } });
    }
    return speaker;
  }
  if (fallback === "base") return cast.find((row) => row.is_base) ?? baseSpeakerOf(tx, scriptId);
  throw validationFailed([{ path: "speaker_id", message: "Send at least one of: speaker_id, name.", type: "any.required" }]);
}

/** 422 at `path` when another speaker of the script already has this name (ignoring case). */
export async function assertNameFree(tx: Tx, scriptId: string, name: string, path: string, except?: string): Promise<void> {
  const cast = await tx.scriptSpeaker.findMany({ where: { script_id: scriptId }, select: { speaker_id: true, name: true } });
  const taken = cast.find((row) => row.speaker_id !== except && row.name.toLowerCase() === name.toLowerCase());
  if (taken) throw validationFailed([{ path, message: `A speaker of this script is already named '${taken.name}' (${taken.speaker_id}).`, type: "any.invalid" }]);
}

/** Makes speaker positions 0 … n-1 again in their order, the base speaker first. */
export async function renumberSpeakers(tx: Tx, scriptId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE script_speakers AS s SET position = ordered.n
    FROM (SELECT speaker_id, (row_number() OVER (ORDER BY is_base DESC, position, created_at, speaker_id) - 1)::int AS n
          FROM script_speakers WHERE script_id = ${scriptId}) AS ordered
    WHERE s.speaker_id = ordered.speaker_id AND s.position <> ordered.n`;
}

/** The fields of a speaker a log entry keeps to bring it back. */
export function speakerCopy(row: SpeakerRow) {
  return {
    speaker_id: row.speaker_id,
    position: row.position,
    name: row.name,
    persona: row.persona,
    is_base: row.is_base,
    voice_ref: row.voice_ref,
    voice_name: row.voice_name,
    face_url: row.face_url,
    face_aspect: row.face_aspect,
  };
}

export type SpeakerCopy = ReturnType<typeof speakerCopy>;
