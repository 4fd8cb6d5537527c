// slideshows.export (catalog 4.4): renders the slideshow into an MP4 through the render pipeline.
// In one transaction: an export video is created (video.created) whose composition, made by the
// one scene builder (src/scenes/compose.ts), shows each slide's image full frame for its
// `duration` (4 s by default), moving (Ken Burns) and dissolving into the next, with its text as a
// caption for the whole slide; a
// render of it is queued (the render record, as renders.create writes it); the 5 credits are the
// hold of a slideshow_export operation, which runs the render operation itself and then sets the
// slideshow's export_url (slideshow_status exporting → exported, or failed). `format`: mp4, the
// one the renderer writes (the picture size follows slideshow_format). 400 while a slide has no
// image (run slideshows.generate), 409 while the slideshow is generating or exporting.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, label } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { newId } from "../../ids.js";
import { recordSchema } from "../../resources/record-schema.js";
import { createRecordIn } from "../../resources/service.js";
import { isRenderFormat, parseComposition, presentRender, renders } from "../../renders/index.js";
import { composeScenes } from "../../scenes/index.js";
import { validationFailed } from "../../validation/issues.js";
import { MAX_DURATION_SECONDS, videos } from "../../video-model/index.js";
import { LINK_SECONDS } from "../../faceless/index.js";
import { slideshowExportOperation } from "../operations.js";
import { assertIdle, loadSlideshow } from "../load.js";
import { isPending, slideKey, slideSeconds, slideText, slideUrl } from "../slides.js";

export const EXPORT_FORMATS = ["mp4"] as const;
const CAPTION_CHARACTERS = 120;

export default defineAction({
  name: "slideshows.export",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({
    slideshowId: id(),
    format: label().optional(),
  }),
  price: { credits: 5, per: "call" },
  weight: 5,
  purpose: "export the finished slideshow",
  output: z.object({
    object: z.literal("slideshow_export"),
    task_id: z.string(),
    slideshow_id: z.string(),
    format: z.string(),
    video_id: z.string().describe("The export video holding the slideshow's composition."),
    duration_seconds: z.number(),
    render: recordSchema(renders).describe("The render job: its output_url is the MP4 once completed (also set as the slideshow's export_url)."),
  }),
  async example(setup) {
    const image = await setup.image();
    const slideshow = await setup.create("slideshows", { slideshow_name: "Example", slides: [{ text: "Dusk", image_url: image.url }] });
    return { slideshowId: slideshow.slideshow_id };
  },
  async check({ graphql }, input) {
    if (input.format !== undefined && !(EXPORT_FORMATS as readonly string[]).includes(input.format)) {
      throw validationFailed([{ path: "format", message: `Must be one of: ${EXPORT_FORMATS.join(", ")}.`, type: "any.only", allowed: [...EXPORT_FORMATS] }]);
    }
    await loadSlideshow(graphql.prisma, graphql, input.slideshowId);
  },
  async run({ tx, graphql, cost, queueOperation }, input) {
    const slideshow = await loadSlideshow(tx, graphql, input.slideshowId);
    assertIdle(slideshow);
    const missing = slideshow.slides.filter(isPending);
    if (missing.length > 0) {
      throw new ApiError("invalid_request", `${missing.length} of the slideshow's ${slideshow.slides.length} slides have no image: draw them with slideshows.generate first.`, { param: "slideshowId", details: { pending_slide_ids: missing.map((slide) => slide.slide_id) } });
    }
    if (slideshow.slides.length === 0) throw new ApiError("invalid_request", "The slideshow has no slides to export.", { param: "slideshowId" });
    const format = isRenderFormat(slideshow.slideshow_format) ? slideshow.slideshow_format : "portrait";
    const seconds = slideshow.slides.reduce((sum, slide) => sum + slideSeconds(slide), 0);
    if (seconds > MAX_DURATION_SECONDS) {
      throw new ApiError("invalid_request", `The slides last ${seconds} s; a video holds at most ${MAX_DURATION_SECONDS} s.`, { param: "slideshowId", details: { duration_seconds: seconds, max_seconds: MAX_DURATION_SECONDS } });
    }
    const files = graphql.services.files;
    // Each slide a silent scene of its duration: its picture, its text as a caption for the whole slide.
    const made = composeScenes(
      slideshow.slides.map((slide) => {
        const key = slideKey(slide);
        return { duration: slideSeconds(slide), voice: null, words: [], caption: slideText(slide)?.slice(0, CAPTION_CHARACTERS) ?? null, visual: { kind: "image" as const, src: key ? files.signedUrl(key, LINK_SECONDS) : slideUrl(slide)! } };
      }),
      { format, captions: "plain", transition: "dissolve", title: null, closing: null, music: null },
    );
    const composition = made!.composition;
    const at = composition.duration as number;
    parseComposition(composition); // a slide URL the renderer cannot take is a 422 now, not a failed render
    const video = await createRecordIn(tx, graphql, videos, { video_name: `${slideshow.slideshow_name} (export)`.slice(0, 500), video_format: format, composition, video_json: { source: "slideshow", slideshow_id: slideshow.slideshow_id } }, { select: { video_id: true } });
    const renderId = newId("render");
    const render = await tx.render.create({
      data: { render_id: renderId, workspace_id: graphql.auth.workspaceId, video_id: video.video_id as string, video_format: format, render_status: "queued", credits_consumed: cost },
    });
    await tx.slideshow.update({ where: { slideshow_id: slideshow.slideshow_id }, data: { slideshow_status: "exporting", export_url: null } });
    const operation = await queueOperation(slideshowExportOperation, { subjectId: slideshow.slideshow_id, input: { render_id: renderId } });
    return { object: "slideshow_export" as const, task_id: operation.operation_id, slideshow_id: slideshow.slideshow_id, format: input.format ?? "mp4", video_id: video.video_id as string, duration_seconds: at, render: presentRender(render) };
  },
});
