// Scripts (catalog 4.8, 4.9, 4.10): documents, settings and sharing; paragraphs and writing
// passes; speakers, voice and clips. Every action but scripts.list, scripts.create, scripts.models,
// scripts.voices and scripts.ideas requires `script_id`. `request` is any JSON value (its meaning
// is not given by the catalog) and `idempotency_key` de-duplicates one model call.
import { z } from "zod";
import { PROMPT_TEXT, defineFamily, flag, id, idempotencyKey, integer, label, modelRef, name, paragraphIds, prompt, request, requireOneOf, text } from "./define.js";

/** Words of one paragraph. */
export const paragraphText = () => text(PROMPT_TEXT);
/** A voice of the catalog (`scripts.voices`). */
export const voiceRef = () => z.string().min(1).max(128);
/** Target runtime of a script, up to 4 hours. */
export const targetDurationMs = () => integer(1_000, 14_400_000);
/** Paragraphs a model is asked to write. */
export const paragraphCount = () => integer(1, 200);
/** A paragraph addressed by id or by its 0-based position (`scripts.read` from / to). */
export const paragraphBound = () => z.union([id(), z.number().int().min(0).max(100_000)]);

export const SCRIPTS_ACTIONS = defineFamily("scripts", [
  {
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
    price: { credits: 2, per: "call" },
    weight: 2,
    purpose: "one scene per paragraph, each carrying its recording where one exists",
  },
  {
    name: "scripts.voice",
    method: "POST",
    scopes: ["scripts:execute"],
    credits: true,
    input: z.strictObject({
      script_id: id(),
      paragraph_ids: paragraphIds().optional(),
      voice_ref: voiceRef().optional(),
      voice_name: name().optional(),
      takes: integer(1, 3).default(1),
      force: flag().optional(),
      dry_run: flag().optional(),
      request: request().optional(),
      idempotency_key: idempotencyKey().optional(),
    }),
    price: {
      credits: 2,
      per: "paragraph",
      times_field: "takes",
      note: "per paragraph synthesised, per take; the service counts paragraphs (paragraph_ids, or the whole script) whose words changed, all of them with force, none without a voice; dry_run spends nothing",
    },
    weight: 5,
    purpose:
      "one synthesis per paragraph per take; no `paragraph_ids` means the whole script; a take whose words are unchanged is left alone; `takes` 1 to 3, all kept; voice precedence: paragraph, its speaker, `voice_ref` of the call, document default; a paragraph with no voice anywhere is skipped",
  },
  {
    name: "scripts.takes",
    method: "GET",
    scopes: ["scripts:read"],
    credits: false,
    input: z.strictObject({
      script_id: id(),
      paragraph_ids: paragraphIds().optional(),
      stale_only: flag().optional(),
      missing_only: flag().optional(),
      request: request().optional(),
    }),
    weight: 1,
    purpose: "kept takes per paragraph, the chosen one, duration, voice, staleness; free",
  },
  {
    name: "scripts.listen",
    method: "GET",
    scopes: ["scripts:read"],
    credits: false,
    input: z.strictObject({
      script_id: id(),
      paragraph_id: id().optional(),
      take_id: id().optional(),
      paragraph_ids: paragraphIds(4).optional(),
      all_takes: flag().optional(),
      request: request().optional(),
    }),
    weight: 1,
    purpose: "returns the audio itself; up to 4 paragraphs; free",
  },
  {
    name: "scripts.choose_take",
    method: "POST",
    scopes: ["scripts:write"],
    credits: false,
    input: z.strictObject({
      script_id: id(),
      paragraph_id: id(),
      take_id: id(),
      request: request().optional(),
    }),
    weight: 1,
    purpose: "the chosen take is the one the player, export, subtitle timing and video hand-over read",
  },
  {
    name: "scripts.delete_take",
    method: "POST",
    scopes: ["scripts:write"],
    credits: false,
    input: requireOneOf(
      z.strictObject({
        script_id: id(),
        paragraph_id: id(),
        take_id: id().optional(),
        take_ids: z.array(id()).min(1).max(50).optional(),
        keep_chosen: flag().optional(),
        request: request().optional(),
      }),
      ["take_id", "take_ids"],
    ),
    weight: 1,
    purpose: "a paragraph keeps a limited number of takes and the oldest falls off the end",
  },
  {
    name: "scripts.pace",
    method: "POST",
    scopes: ["scripts:write"],
    credits: false,
    input: requireOneOf(
      z.strictObject({
        script_id: id(),
        paragraph_ids: paragraphIds().optional(),
        rate: z.number().min(0.75).max(3).nullable().optional(),
        clear: flag().optional(),
        request: request().optional(),
      }),
      ["rate", "clear"],
    ),
    weight: 1,
    purpose:
      "playback rate 0.75 to 3 stored on the document; `null` follows the listener or export setting; 1 is not null",
  },
  {
    name: "scripts.narration",
    method: "GET",
    scopes: ["scripts:read"],
    credits: false,
    input: z.strictObject({
      script_id: id(),
      speed: z.number().min(0.75).max(3).optional(),
      container: label().optional(),
      request: request().optional(),
    }),
    weight: 1,
    purpose:
      "chosen takes in order with file, pace and total runtime; unrecorded parts are reported, not padded",
  },
  {
    name: "scripts.film",
    method: "POST",
    scopes: ["scripts:execute"],
    credits: true,
    input: z.strictObject({
      script_id: id(),
      paragraph_ids: paragraphIds().optional(),
      model_id: modelRef().optional(),
      prompt: prompt().optional(),
      force: flag().optional(),
      dry_run: flag().optional(),
      request: request().optional(),
      idempotency_key: idempotencyKey().optional(),
    }),
    price: {
      credits: 3,
      per: "second",
      note: "per second of clip, measured from the chosen recordings (rounded up per paragraph); paragraphs already filmed against the same recording are skipped unless force; dry_run spends nothing",
    },
    weight: 5,
    purpose:
      "starts lip-synced clip jobs from the speaker's photo and the existing recording, billed per second of clip; returns at once, a clip takes one to three minutes; a paragraph needs a speaker face and a voice recording, missing ones are reported; a paragraph already filmed against the same recording is left alone unless `force`",
  },
  {
    name: "scripts.clips",
    method: "GET",
    scopes: ["scripts:read"],
    credits: false,
    input: z.strictObject({
      script_id: id(),
      paragraph_ids: paragraphIds().optional(),
      pending_only: flag().optional(),
      request: request().optional(),
    }),
    weight: 1,
    purpose:
      "per paragraph: clip present, still running, model, duration, cost, attempts kept; speakers with a face; available lip-sync models with price per second; free",
  },
  {
    name: "scripts.choose_clip",
    method: "POST",
    scopes: ["scripts:write"],
    credits: false,
    input: z.strictObject({
      script_id: id(),
      paragraph_id: id(),
      clip_id: id(),
      request: request().optional(),
    }),
    weight: 1,
    purpose: "reversible, free",
  },
  {
    name: "scripts.delete_clip",
    method: "POST",
    scopes: ["scripts:write"],
    credits: false,
    input: z.strictObject({
      script_id: id(),
      paragraph_id: id(),
      clip_id: id(),
      request: request().optional(),
    }),
    weight: 1,
    purpose: "see Document 1 section 3",
  },
]);
