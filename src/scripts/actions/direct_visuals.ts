// scripts.direct_visuals (catalog 4.9): shot direction for every unlocked paragraph, on the
// script's `model_ref`: what is on screen while it is spoken (`direction`), the kind of shot,
// search terms for b-roll and a prompt for a generated image — the `visual` scripts.set_paragraph_visual
// writes, replaced whole. Locked paragraphs are skipped and counted. One `paragraph.visual` entry
// of the edit log per paragraph changed.
import { z } from "zod";
import { presentVisual } from "../present.js";
import { defineAction } from "../../actions/framework/action.js";
import { id, idempotencyKey, prompt, request } from "../../actions/catalog/define.js";
import { readScript } from "../document.js";
import { byLock, PassWriter, passOutput } from "../writing/apply.js";
import { documentBlock, openIfUnchanged, passBrief, passText, readForPass } from "../writing/pass.js";

/** The kinds of shot a pass proposes (a caller's own visual may name any other). */
export const VISUAL_KINDS = ["talking_head", "broll", "screen_recording", "graphic", "image", "text_card"] as const;

export default defineAction({
  name: "scripts.direct_visuals",
  method: "POST",
  scopes: ["scripts:execute"],
  credits: true,
  input: z.strictObject({
    script_id: id(),
    instruction: prompt().optional(),
    request: request().optional(),
    idempotency_key: idempotencyKey().optional(),
  }),
  price: { credits: 2, per: "call" },
  weight: 2,
  purpose: "shot direction for every paragraph",
  mode: "model",
  uses: ["text"],
  output: passOutput("script_visuals", {}),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "The city wakes up before the sun does." });
    return { script_id: script.script_id, instruction: "Mostly b-roll." };
  },
  async check({ graphql }, input) {
    await readScript(graphql.prisma, graphql, input.script_id);
  },
  async run({ graphql, db, providers, commit, ran }, input) {
    const document = await readForPass(db, graphql, input.script_id);
    const { open, locked } = byLock(document.paragraphs);
    const { model, text } = passText(providers, graphql, document.script, "document");
    const visuals = new Map<string, { direction: string; kind: string; broll_keywords: string[]; image_prompt: string | null }>();
    if (open.length) {
      const ids = open.map((row) => row.paragraph_id) as [string, ...string[]];
      const answer = await text.generateObject({
        system: `You direct the visuals of a video script: for each unlocked paragraph, what is on screen while it is spoken, the kind of shot (${VISUAL_KINDS.join(", ")}), b-roll search keywords and a prompt for a generated still. Follow every paragraph's instruction.`,
        prompt: [
          passBrief(document),
          input.instruction?.trim() ? `Instruction: ${input.instruction.trim()}` : undefined,
          `Answer a visual for each unlocked paragraph, by its id (${ids.length}).`,
          "",
          documentBlock(document.paragraphs),
        ].filter((line) => line !== undefined).join("\n"),
        schema: z.object({
          paragraphs: z.array(z.object({
            paragraph_id: z.enum(ids),
            direction: z.string().min(1).max(5_000),
            kind: z.enum(VISUAL_KINDS),
            broll_keywords: z.array(z.string().min(1).max(100)).max(20),
            image_prompt: z.string().max(20_000),
          })).max(ids.length),
        }),
        schemaName: "script_visuals",
      });
      for (const visual of answer.object.paragraphs) {
        if (visuals.has(visual.paragraph_id)) continue;
        visuals.set(visual.paragraph_id, {
          direction: visual.direction.trim(),
          kind: visual.kind,
          broll_keywords: [...new Set(visual.broll_keywords.map((keyword) => keyword.trim()).filter(Boolean))],
          image_prompt: visual.image_prompt.trim() || null,
        });
      }
    }
    // Nothing to work on (no unlocked paragraph): no model call, nothing spent.
    if (!open.length) ran(0);
    return commit(async (tx) => {
      const writer = new PassWriter(tx, await openIfUnchanged(tx, graphql, document, "scripts.direct_visuals"), input.script_id);
      for (const paragraph of open) {
        const visual = visuals.get(paragraph.paragraph_id);
        // A picture the caller set stays: the model directs, it does not pick media.
        if (visual) await writer.setVisual(paragraph, { ...visual, src: presentVisual(paragraph.visual)?.src ?? null });
      }
      const { common } = await writer.finish(document, model, input.request, locked);
      return { object: "script_visuals" as const, ...common };
    });
  },
});
