// What scripts.film will do, from the records, before anything is held: per paragraph asked for
// (the whole script without paragraph_ids), its speaker's photo (`face_url`) and its chosen take;
// filmed, left alone (already filmed — or being filmed — against that same take; `force` films
// again) or reported missing a face, a recording or both. The clip costs 3 credits per second of
// the take, rounded up per paragraph.
import type { PrismaClient } from "../../generated/prisma/client.js";
import type { GraphQLContext } from "../../graphql/context.js";
import type { ProviderRegistry } from "../../providers/registry.js";
import type { Tx } from "../../db/transaction.js";
import { validationFailed } from "../../validation/issues.js";
import { readScript } from "../document.js";
import { paragraphsOf, type ParagraphRow } from "../paragraphs.js";
import { billedSeconds } from "./film-operation.js";

export interface FilmEntry {
  paragraph: ParagraphRow;
  status: "film" | "filmed" | "missing";
  missing: ("face" | "recording")[];
  face_url: string | null;
  take_id: string | null;
  seconds: number;
}

/** The lip-sync models usable here, the configured one first. */
export function lipsyncModels(providers: ProviderRegistry) {
  return providers.catalog().filter((model) => model.capability === "lipsync");
}

/** The model a call films with: `model_id` if usable here (422 otherwise), else the configured one. */
export function filmModel(providers: ProviderRegistry, modelId: string | undefined): string {
  const usable = lipsyncModels(providers).map((model) => model.ref);
  if (modelId === undefined) return providers.model("lipsync")?.ref ?? usable[0] ?? "local/still";
  if (usable.includes(modelId)) return modelId;
  throw validationFailed([{ path: "model_id", message: `'${modelId}' is not a lip-sync model of this deployment. Must be one of: ${usable.join(", ")} (scripts.clips lists them).`, type: "any.only", allowed: usable }]);
}

export async function planFilming(client: PrismaClient | Tx, context: GraphQLContext, input: { script_id: string; paragraph_ids?: string[]; force?: boolean }) {
  const script = await readScript(client, context, input.script_id);
  const rows = input.paragraph_ids
    ? await paragraphsOf(client, input.script_id, input.paragraph_ids)
    : await client.scriptParagraph.findMany({ where: { script_id: input.script_id }, orderBy: { position: "asc" } });
  const speakers = await client.scriptSpeaker.findMany({ where: { script_id: input.script_id } });
  const base = speakers.find((speaker) => speaker.is_base);
  const takes = await client.scriptTake.findMany({ where: { take_id: { in: rows.map((row) => row.chosen_take_id).filter((id): id is string => id !== null) } } });
  const clips = await client.scriptClip.findMany({ where: { paragraph_id: { in: rows.map((row) => row.paragraph_id) }, status: { in: ["running", "completed"] } } });
  const entries: FilmEntry[] = rows.map((paragraph) => {
    const speaker = paragraph.speaker_id ? speakers.find((row) => row.speaker_id === paragraph.speaker_id) : base;
    const take = takes.find((row) => row.take_id === paragraph.chosen_take_id);
    const missing: FilmEntry["missing"] = [...(speaker?.face_url ? [] : ["face" as const]), ...(take ? [] : ["recording" as const])];
    const filmed = take && clips.some((clip) => clip.paragraph_id === paragraph.paragraph_id && clip.take_id === take.take_id);
    return {
      paragraph,
      status: missing.length ? "missing" : filmed && !input.force ? "filmed" : "film",
      missing,
      face_url: speaker?.face_url ?? null,
      take_id: take?.take_id ?? null,
      seconds: take ? billedSeconds(take.duration_ms) : 0,
    };
  });
  const toFilm = entries.filter((entry) => entry.status === "film");
  return { script, entries, toFilm, seconds: toFilm.reduce((sum, entry) => sum + entry.seconds, 0) };
}
