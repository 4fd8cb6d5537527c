// scripts.clips (catalog 4.10): per paragraph, whether a clip is present or still running, its
// attempts kept (newest first: model, duration, cost, status), the chosen one; the speakers with a
// face; and the lip-sync models usable here with their price per second. `pending_only` keeps the
// paragraphs with a clip still running. Free.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, paragraphIds, request } from "../../actions/catalog/define.js";
import { readScript } from "../document.js";
import { clipShape, presentClip } from "../film/clips.js";
import { lipsyncModels } from "../film/plan.js";
import { paragraphsOf } from "../paragraphs.js";
import { echoedRequest } from "../summary.js";

export default defineAction({
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
  output: z.object({
    object: z.literal("script_clips"),
    script_id: z.string(),
    paragraphs: z.array(
      z.object({
        paragraph_id: z.string(),
        position: z.number().int(),
        status: z.enum(["none", "running", "ready"]).describe("ready: a chosen clip exists; running: an attempt is being filmed; none: neither."),
        chosen_clip_id: z.string().nullable(),
        attempts: z.array(clipShape).describe("Newest first."),
      }),
    ),
    speakers_with_face: z.array(z.object({ speaker_id: z.string(), name: z.string(), face_url: z.string() })),
    models: z.array(z.object({ model_id: z.string(), label: z.string(), configured: z.boolean(), credits_per_second: z.number().nullable().describe("The model's own price; scripts.film bills 3 credits per second of clip.") })),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    return { script_id: script.script_id };
  },
  async run({ tx, graphql }, input) {
    await readScript(tx, graphql, input.script_id);
    const rows = input.paragraph_ids
      ? await paragraphsOf(tx, input.script_id, input.paragraph_ids)
      : await tx.scriptParagraph.findMany({ where: { script_id: input.script_id }, orderBy: { position: "asc" } });
    const clips = await tx.scriptClip.findMany({ where: { paragraph_id: { in: rows.map((row) => row.paragraph_id) } }, orderBy: [{ created_at: "desc" }, { clip_id: "desc" }] });
    const speakers = await tx.scriptSpeaker.findMany({ where: { script_id: input.script_id, face_url: { not: null } }, orderBy: { position: "asc" } });
    const paragraphs = rows.map((row) => {
      const attempts = clips.filter((clip) => clip.paragraph_id === row.paragraph_id);
      const chosen = attempts.find((clip) => clip.clip_id === row.chosen_clip_id && clip.status === "completed");
      const status = chosen ? "ready" : attempts.some((clip) => clip.status === "running") ? "running" : "none";
      return { paragraph_id: row.paragraph_id, position: row.position, status, chosen_clip_id: chosen?.clip_id ?? null, attempts: attempts.map((clip) => presentClip(clip, graphql.services.files, chosen?.clip_id ?? null)) } as const;
    });
    return {
      object: "script_clips" as const,
      script_id: input.script_id,
      paragraphs: input.pending_only ? paragraphs.filter((paragraph) => paragraph.attempts.some((clip) => clip.status === "running")) : paragraphs,
      speakers_with_face: speakers.map((speaker) => ({ speaker_id: speaker.speaker_id, name: speaker.name, face_url: speaker.face_url! })),
      models: lipsyncModels(graphql.services.providers).map((model) => ({ model_id: model.ref, label: model.label, configured: model.configured, credits_per_second: model.price ? model.price.credits : null })),
      request: input.request ?? null,
    };
  },
});
