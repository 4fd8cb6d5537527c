// music.generate (catalog 4.3): a song from a prompt, lyrics or a style brief. The music record is
// written pending and its operation queued, the credits held, in one transaction; the operation
// (src/music/music-operation.ts) hosts the tracks and emits music.completed, or music.failed with
// the credits refunded. music.get_task reads where it stands.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, name, prompt, requireOneOf, text } from "../../actions/catalog/define.js";
import { newId } from "../../ids.js";
import { presentRecord } from "../../resources/selection.js";
import { recordSchema } from "../../resources/record-schema.js";
import { musicOperation } from "../music-operation.js";
import { music } from "../resource.js";

export default defineAction({
  name: "music.generate",
  method: "POST",
  scopes: ["music:execute"],
  credits: true,
  input: requireOneOf(
    z.strictObject({
      prompt: prompt().optional(),
      lyrics: prompt().optional(),
      style: text(1000).optional(),
      title: name().optional(),
      instrumental: flag().optional(),
    }),
    ["prompt", "lyrics", "style"],
  ),
  price: { credits: 10, per: "call" },
  weight: 5,
  purpose: "create a song from a prompt, lyrics or style brief",
  uses: ["music"],
  output: recordSchema(music),
  async example() {
    return { prompt: "An upbeat synth-pop jingle about mornings", title: "Sunrise" };
  },
  async run({ tx, graphql, cost, queueOperation }, input) {
    const generationId = newId("music_generation");
    const model = graphql.services.providers.model("music")!;
    const request = { prompt: input.prompt, lyrics: input.lyrics, style: input.style, title: input.title, instrumental: input.instrumental ?? false };
    const row = await tx.musicGeneration.create({
      data: {
        generation_id: generationId,
        workspace_id: graphql.auth.workspaceId,
        status: "pending",
        provider: model.provider,
        model_id: model.model,
        title: input.title ?? null,
        prompt: input.prompt ?? null,
        lyrics: input.lyrics ?? null,
        style: input.style ?? null,
        instrumental: request.instrumental,
        credits_consumed: cost,
        request,
      },
    });
    await queueOperation(musicOperation, { subjectId: generationId, input: request });
    return presentRecord(music, row);
  },
});
