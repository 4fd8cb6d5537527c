// renders.create (catalog 4.2): queues a render of a video. The render record and its operation
// are written queued, the credits held, in one transaction; the render operation
// (src/renders/render-operation.ts) draws it and settles the hold.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, videoFormat } from "../../actions/catalog/define.js";
import { newId } from "../../ids.js";
import { recordSchema } from "../../resources/record-schema.js";
import { validationFailed } from "../../validation/issues.js";
import { assertCompositionDrawable } from "../../video-model/index.js";
import { mergeValues } from "../../video-model/index.js";
import { parseComposition } from "../composition.js";
import { outputIssues, renderOutput } from "../output-spec.js";
import { renderOperation } from "../render-operation.js";
import { presentRender } from "../present.js";
import { renders } from "../resource.js";
import { renderFormat, videoToRender } from "../videos-to-render.js";

export default defineAction({
  name: "renders.create",
  method: "POST",
  scopes: ["renders:execute", "renders:write"],
  credits: true,
  price: { credits: 10, per: "call" },
  emits: ["render.started"],
  weight: 5,
  purpose: "queue a render for a video; returns the render job",
  input: z.strictObject({
    video_id: id(),
    video_type_id: id().optional(),
    video_format: videoFormat().optional(),
    // Extensions beyond the catalog's input (docs/renders.md): merge values and what file to make.
    merge: mergeValues.optional().describe("Values of the composition's {{name}} merge fields; a name without a value is a 422 at merge.<name>."),
    output: renderOutput.optional().describe("What the render makes: format (mp4 default, webm, gif, mp3, wav, png, jpg), resolution or width/height, fps, quality, range, at (stills), poster_at. docs/renders.md."),
  }),
  output: recordSchema(renders),
  async example(setup) {
    const video = await setup.create("videos", {
      video_name: "Example",
      composition: { duration: 1, fps: 10, layers: [{ type: "text", text: "Hi" }] },
    });
    return { video_id: video.video_id };
  },
  async run({ tx, graphql, cost, queueOperation }, input) {
    const video = await videoToRender(tx, graphql, input.video_id);
    // The composition is checked now (a missing one included), so a bad one is a 422 here rather
    // than a failed render later.
    const composition = parseComposition(video.composition, { merge: input.merge });
    const issues = input.output ? outputIssues(input.output, composition.duration) : [];
    if (issues.length > 0) throw validationFailed(issues, `Invalid output: ${issues[0]!.path}: ${issues[0]!.message}`);
    const format = renderFormat(input.video_format ?? video.video_format);
    // Text that fits and fonts that draw it on the render's frame, references of this workspace
    // with their files: refused here, before the hold, rather than failed later.
    await assertCompositionDrawable(tx, { workspaceId: graphql.auth.workspaceId, signer: graphql.services.files.signer }, composition, format, { needFiles: true });
    const renderId = newId("render");
    const row = await tx.render.create({
      data: {
        render_id: renderId,
        workspace_id: graphql.auth.workspaceId,
        video_id: video.video_id,
        video_type_id: input.video_type_id ?? video.video_type_id,
        video_format: format,
        render_status: "queued",
        credits_consumed: cost,
        output_format: input.output?.format ?? "mp4",
      },
    });
    await queueOperation(renderOperation, { subjectId: renderId, input: { ...(input.output && { output: input.output }), ...(input.merge && { merge: input.merge }) } });
    return presentRender(row);
  },
});
