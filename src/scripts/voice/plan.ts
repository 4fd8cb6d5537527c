// What scripts.voice will do, decided from the records before anything is held or synthesised
// (the same plan prices the call, answers dry_run and a test key's quote, and drives the work):
// per paragraph asked for (paragraph_ids, or the whole script in order), its voice by precedence —
// the paragraph's own, its speaker's, the call's voice_ref (or voice_name), the script's default —
// and whether it is voiced, left alone (its chosen take already speaks these words; `force`
// re-voices) or skipped (no voice anywhere, or a voice no speech provider here can speak).
import type { Tx } from "../../db/transaction.js";
import type { PrismaClient } from "../../generated/prisma/client.js";
import type { GraphQLContext } from "../../graphql/context.js";
import type { ProviderRegistry } from "../../providers/registry.js";
import { readScript, type ScriptRow } from "../document.js";
import { paragraphsOf, type ParagraphRow } from "../paragraphs.js";
import { requireVoice, voiceByName, voiceByRef, type VoiceEntry } from "../refs.js";
import { validationFailed } from "../../validation/issues.js";
import { textHash, voiceOf } from "./takes.js";

export type PlanStatus = "voice" | "unchanged" | "no_voice" | "voice_unavailable";

export interface PlannedParagraph {
  paragraph: ParagraphRow;
  status: PlanStatus;
  voice: VoiceEntry | undefined;
  /** Where the voice came from in the precedence. */
  voice_from: "paragraph" | "speaker" | "call" | "script" | null;
  /** The requested voice_ref, even when it cannot be used here. */
  voice_ref: string | null;
  /** The speech model that speaks it, `<provider>/<model id>`. */
  model: string | null;
}

export interface VoicePlan {
  script: ScriptRow;
  paragraphs: PlannedParagraph[];
  /** Paragraphs to synthesise (each `takes` times). */
  toVoice: PlannedParagraph[];
}

export interface VoiceInput {
  script_id: string;
  paragraph_ids?: string[];
  voice_ref?: string;
  voice_name?: string;
  force?: boolean;
}

/** The speech model that speaks a voice: the configured one when its provider matches, else that provider's first usable one. */
export function speechModelFor(providers: ProviderRegistry, voice: VoiceEntry): string | undefined {
  const configured = providers.model("speech");
  if (configured && configured.provider === voice.provider) return configured.ref;
  return providers.catalog().find((model) => model.capability === "speech" && model.provider === voice.provider)?.ref;
}

/** The call's own voice (voice_ref, else voice_name), checked: 422 when it names nothing usable. */
async function callVoice(client: PrismaClient | Tx, context: GraphQLContext, input: VoiceInput): Promise<VoiceEntry | undefined> {
  if (input.voice_ref !== undefined) {
    const voice = await requireVoice(client, context, input.voice_ref, "voice_ref");
    if (input.voice_name !== undefined && input.voice_name.toLowerCase() !== voice.name.toLowerCase()) {
      throw validationFailed([{ path: "voice_name", message: `The voice '${voice.voice_ref}' is named '${voice.name}', not '${input.voice_name}'. Send one of voice_ref and voice_name.`, type: "any.invalid" }]);
    }
    return voice;
  }
  if (input.voice_name !== undefined) return voiceByName(client, context, input.voice_name, "voice_name");
  return undefined;
}

export async function planVoicing(client: PrismaClient | Tx, context: GraphQLContext, input: VoiceInput): Promise<VoicePlan> {
  const script = await readScript(client, context, input.script_id);
  const rows = input.paragraph_ids
    ? await paragraphsOf(client, input.script_id, input.paragraph_ids)
    : await client.scriptParagraph.findMany({ where: { script_id: input.script_id }, orderBy: { position: "asc" } });
  const call = await callVoice(client, context, input);
  const speakers = new Map((await client.scriptSpeaker.findMany({ where: { script_id: input.script_id } })).map((speaker) => [speaker.speaker_id, speaker]));
  const base = [...speakers.values()].find((speaker) => speaker.is_base);
  const chosenHashes = new Map(
    (await client.scriptTake.findMany({ where: { take_id: { in: rows.map((row) => row.chosen_take_id).filter((id): id is string => id !== null) } }, select: { paragraph_id: true, text_hash: true } })).map((take) => [take.paragraph_id, take.text_hash]),
  );
  const voices = new Map<string, VoiceEntry | undefined>();
  const resolve = async (ref: string) => {
    if (!voices.has(ref)) voices.set(ref, await voiceByRef(client, context, ref));
    return voices.get(ref);
  };
  const paragraphs: PlannedParagraph[] = [];
  for (const paragraph of rows) {
    const speaker = paragraph.speaker_id ? speakers.get(paragraph.speaker_id) : base;
    const chosen = voiceOf(paragraph, speaker, call?.voice_ref, script.default_voice_ref);
    const voice = chosen ? (chosen.from === "call" ? call : await resolve(chosen.voice_ref)) : undefined;
    const model = voice ? speechModelFor(context.services.providers, voice) : undefined;
    const unchanged = !input.force && chosenHashes.get(paragraph.paragraph_id) === textHash(paragraph.text);
    const status: PlanStatus = !chosen ? "no_voice" : !voice || !model ? "voice_unavailable" : unchanged || paragraph.text.trim() === "" ? "unchanged" : "voice";
    paragraphs.push({ paragraph, status, voice, voice_from: chosen?.from ?? null, voice_ref: chosen?.voice_ref ?? null, model: model ?? null });
  }
  return { script, paragraphs, toVoice: paragraphs.filter((planned) => planned.status === "voice") };
}
