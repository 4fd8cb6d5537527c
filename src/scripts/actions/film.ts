// scripts.film (catalog 4.10): starts lip-synced clips of paragraphs from their speaker's photo and
// chosen take, and answers at once (docs/scripts.md, "Filming and clips"). The plan
// (src/scripts/film/plan.ts) decides what is filmed, left alone or missing a face or recording; the
// price is 3 credits per second of clip, counted from the chosen takes (rounded up per paragraph).
// The clips are written `running` and one operation (src/scripts/film/film-operation.ts) films
// them, its hold settled to the clips made. `dry_run` answers the plan and its quote.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, idempotencyKey, modelRef, paragraphIds, prompt, request } from "../../actions/catalog/define.js";
import { newId } from "../../ids.js";
import { lockScript } from "../document.js";
import { CREDITS_PER_SECOND, filmOperation } from "../film/film-operation.js";
import { filmModel, planFilming, type FilmEntry } from "../film/plan.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
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
    credits: CREDITS_PER_SECOND,
    per: "second",
    note: "per second of clip, measured from the chosen recordings (rounded up per paragraph); paragraphs already filmed against the same recording are skipped unless force; dry_run spends nothing",
  },
  weight: 5,
  purpose:
    "starts lip-synced clip jobs from the speaker's photo and the existing recording, billed per second of clip; returns at once, a clip takes one to three minutes; a paragraph needs a speaker face and a voice recording, missing ones are reported; a paragraph already filmed against the same recording is left alone unless `force`",
  output: z.object({
    object: z.literal("script_filming"),
    script_id: z.string(),
    dry_run: z.boolean(),
    model: z.string(),
    lip_synced: z.boolean().describe("False for local/still: the photo is held over the recording, the lips do not move."),
    operation_id: z.string().nullable().describe("The operation filming the clips (null when nothing is filmed)."),
    clips: z.array(z.object({ clip_id: z.string().nullable(), paragraph_id: z.string(), take_id: z.string(), seconds: z.number().int(), credits: z.number().int(), status: z.string() })),
    skipped: z.array(z.object({ paragraph_id: z.string(), reason: z.enum(["filmed", "missing"]), missing: z.array(z.enum(["face", "recording"])) })),
    quote: z.object({ paragraphs: z.number().int(), seconds: z.number().int(), credits: z.number().int() }),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Hello there." });
    await setup.action("scripts.set_speaker_face", { script_id: script.script_id, image_url: (await setup.image()).url });
    await setup.action("scripts.voice", { script_id: script.script_id, voice_ref: "local/en-us" });
    return { script_id: script.script_id, model_id: "local/still" };
  },
  async units({ graphql }, input) {
    filmModel(graphql.services.providers, input.model_id);
    if (input.dry_run) return 0;
    return (await planFilming(graphql.prisma, graphql, input)).seconds;
  },
  async run({ tx, graphql, queueOperation }, input) {
    const model = filmModel(graphql.services.providers, input.model_id);
    if (!input.dry_run) await lockScript(tx, graphql, input.script_id);
    const plan = await planFilming(tx, graphql, input);
    const skipped = plan.entries.filter((entry) => entry.status !== "film").map((entry) => ({ paragraph_id: entry.paragraph.paragraph_id, reason: entry.status as "filmed" | "missing", missing: entry.missing }));
    const planned = (entry: FilmEntry, clipId: string | null, status: string) => ({ clip_id: clipId, paragraph_id: entry.paragraph.paragraph_id, take_id: entry.take_id!, seconds: entry.seconds, credits: entry.seconds * CREDITS_PER_SECOND, status });
    const base = { object: "script_filming" as const, script_id: input.script_id, dry_run: Boolean(input.dry_run), model, lip_synced: model !== "local/still", skipped, quote: { paragraphs: plan.toFilm.length, seconds: plan.seconds, credits: plan.seconds * CREDITS_PER_SECOND }, request: input.request ?? null };
    if (input.dry_run || plan.toFilm.length === 0) return { ...base, operation_id: null, clips: plan.toFilm.map((entry) => planned(entry, null, "planned")) };
    const clips = [];
    for (const entry of plan.toFilm) {
      const clipId = newId("script_clip");
      await tx.scriptClip.create({ data: { clip_id: clipId, script_id: input.script_id, paragraph_id: entry.paragraph.paragraph_id, take_id: entry.take_id!, face_url: entry.face_url!, model, status: "running" } });
      clips.push(planned(entry, clipId, "running"));
    }
    const operation = await queueOperation(filmOperation, { subjectId: input.script_id, input: { clip_ids: clips.map((clip) => clip.clip_id!) } });
    await tx.scriptClip.updateMany({ where: { clip_id: { in: clips.map((clip) => clip.clip_id!) } }, data: { operation_id: operation.operation_id } });
    return { ...base, operation_id: operation.operation_id, clips };
  },
});
