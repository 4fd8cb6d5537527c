// scripts.voice (catalog 4.10): one synthesis per paragraph per take (docs/scripts.md, "Voice and
// takes"). The plan (src/scripts/voice/plan.ts) decides, before anything is held, which paragraphs
// are voiced: the ones asked for (the whole script without paragraph_ids) whose chosen take does
// not already speak their words (all with `force`), each with its voice by precedence; a paragraph
// with no voice anywhere, or a voice no provider here speaks, is skipped and reported. The price is
// per paragraph voiced, per take; dry_run answers the plan and its quote and spends nothing.
//
// A synchronous model call, not an operation: the runner holds the credits, the syntheses run
// outside any transaction (two at a time), the audio is stored, then one transaction writes the
// takes, makes each paragraph's first new take its chosen one and settles the hold to what ran.
// A failed synthesis fails the call: its stored files are removed and the hold is released.
import { eachSideBySide } from "../../side-by-side.js";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, idempotencyKey, integer, name, paragraphIds, request } from "../../actions/catalog/define.js";
import { voiceRef } from "../fields.js";
import { newId } from "../../ids.js";
import { extensionFor } from "../../providers/media-info.js";
import { putBytes } from "../../storage/storage.js";
import { lockScript } from "../document.js";
import { applySpoken, workspaceRules } from "../style-rules.js";
import { echoedRequest } from "../summary.js";
import { measuredMs } from "../voice/audio.js";
import { planVoicing, type PlannedParagraph } from "../voice/plan.js";
import { estimatedWords, pruneTakes, textHash } from "../voice/takes.js";

/** Credits of one synthesis (the catalog's price per paragraph per take). */
const CREDITS_PER_TAKE = 2;
/** Syntheses running at once (the machine's cores are shared with renders). */
const PARALLEL = 2;

const input = z.strictObject({
  script_id: id(),
  paragraph_ids: paragraphIds().optional(),
  voice_ref: voiceRef().optional(),
  voice_name: name().optional(),
  takes: integer(1, 3).default(1),
  force: flag().optional(),
  dry_run: flag().optional(),
  request: request().optional(),
  idempotency_key: idempotencyKey().optional(),
});

const plannedShape = z.object({
  paragraph_id: z.string(),
  position: z.number().int(),
  voice_ref: z.string().nullable(),
  voice_from: z.enum(["paragraph", "speaker", "call", "script"]).nullable().describe("Where the voice came from in the precedence."),
  model: z.string().nullable(),
});

const voicedShape = plannedShape.extend({
  take_ids: z.array(z.string()).describe("The new takes, in the order made."),
  chosen_take_id: z.string().nullable().describe("The paragraph's chosen take now: the first new one (null with dry_run)."),
  duration_ms: z.number().int().nullable().describe("Length of the chosen take (null with dry_run)."),
  stale: z.boolean().describe("The words changed while the voice was speaking: the takes speak the words as they were."),
  dropped_take_ids: z.array(z.string()).describe("Oldest takes that fell off (a paragraph keeps at most 6)."),
});

const skippedShape = plannedShape.extend({
  reason: z.enum(["unchanged", "no_voice", "voice_unavailable", "gone"]).describe("unchanged: its chosen take already speaks these words (force re-voices); no_voice: no voice anywhere; voice_unavailable: no speech provider here speaks its voice; gone: deleted while voicing."),
});

const planned = (entry: PlannedParagraph) => ({
  paragraph_id: entry.paragraph.paragraph_id,
  position: entry.paragraph.position,
  voice_ref: entry.voice_ref,
  voice_from: entry.voice_from,
  model: entry.model,
});

interface Made {
  take_id: string;
  key: string;
  contentType: string;
  size: number;
  durationMs: number;
  spoken: string;
  words: { word: string; start: number; end: number }[];
  wordsSource: "provider" | "estimated";
}

export default defineAction({
  name: "scripts.voice",
  method: "POST",
  scopes: ["scripts:execute"],
  credits: true,
  input,
  price: {
    credits: CREDITS_PER_TAKE,
    per: "paragraph",
    times_field: "takes",
    note: "per paragraph synthesised, per take; the service counts paragraphs (paragraph_ids, or the whole script) whose words changed, all of them with force, none without a voice; dry_run spends nothing",
  },
  weight: 5,
  purpose:
    "one synthesis per paragraph per take; no `paragraph_ids` means the whole script; a take whose words are unchanged is left alone; `takes` 1 to 3, all kept; voice precedence: paragraph, its speaker, `voice_ref` of the call, document default; a paragraph with no voice anywhere is skipped",
  mode: "model",
  uses: ["speech"],
  output: z.object({
    object: z.literal("script_voicing"),
    script_id: z.string(),
    dry_run: z.boolean(),
    takes: z.number().int().describe("Takes made per paragraph voiced."),
    voiced: z.array(voicedShape).describe("Paragraphs voiced (with dry_run: that would be)."),
    skipped: z.array(skippedShape).describe("Paragraphs left alone, with why."),
    quote: z.object({ paragraphs: z.number().int(), syntheses: z.number().int(), credits: z.number().int() }).describe("What the plan costs: paragraphs voiced × takes × 2 credits."),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example", speaker: "Host" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Hello there." });
    return { script_id: script.script_id, voice_ref: "local/en-us" };
  },
  async units({ graphql }, values) {
    if (values.dry_run) return 0;
    return (await planVoicing(graphql.prisma, graphql, values)).toVoice.length;
  },
  async run({ db, graphql, files, providers, ran, commit }, values) {
    const plan = await planVoicing(db, graphql, values);
    const quote = { paragraphs: plan.toVoice.length, syntheses: plan.toVoice.length * values.takes, credits: plan.toVoice.length * values.takes * CREDITS_PER_TAKE };
    const skipped: z.input<typeof skippedShape>[] = plan.paragraphs.filter((entry) => entry.status !== "voice").map((entry) => ({ ...planned(entry), reason: entry.status as "unchanged" | "no_voice" | "voice_unavailable" }));
    const base = { object: "script_voicing" as const, script_id: values.script_id, dry_run: Boolean(values.dry_run), takes: values.takes, quote, request: values.request ?? null };
    if (values.dry_run) {
      return { ...base, voiced: plan.toVoice.map((entry) => ({ ...planned(entry), take_ids: [], chosen_take_id: null, duration_ms: null, stale: false, dropped_take_ids: [] })), skipped };
    }

    const rules = await workspaceRules(db, graphql.auth.workspaceId);
    const workspace = graphql.auth.workspaceId;
    const made = new Map<string, Made[]>();
    const stored: string[] = [];
    const synthesise = async (entry: PlannedParagraph) => {
      const spoken = applySpoken(entry.paragraph.text, rules).text;
      const speech = providers.getModel("speech", entry.model!);
      const takes: Made[] = [];
      for (let take = 0; take < values.takes; take++) {
        const result = await speech.synthesize({ text: spoken, voice: entry.voice!.provider_voice_id ?? undefined, language: plan.script.language ?? undefined });
        const takeId = newId("script_take");
        const key = `takes/${workspace}/${values.script_id}/${takeId}-${randomUUID().slice(0, 8)}.${extensionFor(result.audio.mediaType)}`;
        const file = await putBytes(files.storage, key, result.audio.data, result.audio.mediaType);
        stored.push(key);
        const durationMs = await measuredMs(result.audio.data, result.audio.mediaType);
        const providerWords = result.words && result.words.length > 0 ? result.words : undefined;
        takes.push({
          take_id: takeId,
          key,
          contentType: file.contentType,
          size: file.size,
          durationMs,
          spoken,
          words: providerWords ?? estimatedWords(spoken, durationMs),
          wordsSource: providerWords ? "provider" : "estimated",
        });
      }
      made.set(entry.paragraph.paragraph_id, takes);
    };
    try {
      // A failure waits for the synthesis still running, so its file is removed with the others.
      await eachSideBySide(plan.toVoice, PARALLEL, synthesise);
    } catch (error) {
      await Promise.all(stored.map((key) => files.storage.delete(key).catch(() => undefined)));
      throw error;
    }

    const dropped: string[] = [];
    const answer = await commit(async (tx) => {
      await lockScript(tx, graphql, values.script_id);
      const current = new Map((await tx.scriptParagraph.findMany({ where: { paragraph_id: { in: plan.toVoice.map((entry) => entry.paragraph.paragraph_id) } } })).map((row) => [row.paragraph_id, row]));
      const voiced = [];
      for (const entry of plan.toVoice) {
        const paragraph = current.get(entry.paragraph.paragraph_id);
        const takes = made.get(entry.paragraph.paragraph_id)!;
        if (!paragraph) {
          skipped.push({ ...planned(entry), reason: "gone" });
          dropped.push(...takes.map((take) => take.key));
          continue;
        }
        const hash = textHash(entry.paragraph.text);
        // Made one after the other, so `created_at` keeps their order.
        for (const [index, take] of takes.entries()) {
          await tx.scriptTake.create({
            data: {
              take_id: take.take_id,
              script_id: values.script_id,
              paragraph_id: paragraph.paragraph_id,
              voice_ref: entry.voice!.voice_ref,
              voice_name: entry.voice!.name,
              model: entry.model!,
              storage_key: take.key,
              content_type: take.contentType,
              size_bytes: take.size,
              duration_ms: take.durationMs,
              text: entry.paragraph.text,
              text_hash: hash,
              spoken_text: take.spoken,
              words: take.words,
              words_source: take.wordsSource,
              credits: CREDITS_PER_TAKE,
              created_at: new Date(Date.now() + index),
            },
          });
        }
        const chosen = takes[0]!;
        await tx.scriptParagraph.update({ where: { paragraph_id: paragraph.paragraph_id }, data: { chosen_take_id: chosen.take_id } });
        const before = await tx.scriptTake.findMany({ where: { paragraph_id: paragraph.paragraph_id }, select: { take_id: true, storage_key: true } });
        const droppedKeys = await pruneTakes(tx, paragraph.paragraph_id, chosen.take_id);
        dropped.push(...droppedKeys);
        voiced.push({
          ...planned(entry),
          take_ids: takes.map((take) => take.take_id),
          chosen_take_id: chosen.take_id,
          duration_ms: chosen.durationMs,
          stale: paragraph.text !== entry.paragraph.text,
          dropped_take_ids: before.filter((take) => droppedKeys.includes(take.storage_key)).map((take) => take.take_id),
        });
      }
      ran(voiced.length);
      return { ...base, voiced, skipped };
    });
    // The dropped takes' rows are gone with the commit; their files follow.
    await Promise.all(dropped.map((key) => files.storage.delete(key).catch(() => undefined)));
    return answer;
  },
});
