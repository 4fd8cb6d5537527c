// slideshows.generate (catalog 4.4): draws every pending slide (one without an image) through the
// image provider, at the slideshow's format. Queued as a slideshow_visuals operation
// (src/slideshows/operations.ts): 4 credits per pending slide are held now (the service counts
// them) and settled to the slides drawn. Slides without an id get one in this call's write, so the
// operation can address them across the caller's edits. 400 when no slide is pending, 409 while
// the slideshow is generating or exporting.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { slideshowVisualsOperation } from "../operations.js";
import { assertIdle, loadSlideshow, type LoadedSlideshow } from "../load.js";
import { isPending, slidePrompt } from "../slides.js";
import { jsonColumn } from "../../faceless/index.js";

const drawable = (slideshow: LoadedSlideshow) => slideshow.slides.filter((slide) => isPending(slide) && slidePrompt(slide));

function pendingOf(slideshow: LoadedSlideshow) {
  const pending = drawable(slideshow);
  if (pending.length === 0) throw new ApiError("invalid_request", "No slide is pending: every slide has an image, or has neither text nor prompt to draw from.", { param: "slideshowId" });
  return pending;
}

export default defineAction({
  name: "slideshows.generate",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({ slideshowId: id() }),
  price: { credits: 4, per: "item", note: "per pending slide drawn; the service counts them" },
  weight: 5,
  purpose: "generate visuals of every pending slide",
  uses: ["image"],
  output: z.object({
    object: z.literal("slideshow_task"),
    task_id: z.string(),
    kind: z.literal("slideshow_visuals"),
    slideshow_id: z.string(),
    status: z.string(),
    slide_ids: z.array(z.string()).describe("The pending slides the task draws, in order."),
  }),
  async example(setup) {
    const slideshow = await setup.create("slideshows", { slideshow_name: "Example", slides: [{ text: "A lighthouse at dusk" }] });
    return { slideshowId: slideshow.slideshow_id };
  },
  async units({ graphql }, input) {
    const slideshow = await loadSlideshow(graphql.prisma, graphql, input.slideshowId);
    assertIdle(slideshow);
    return pendingOf(slideshow).length;
  },
  async run({ tx, graphql, queueOperation }, input) {
    const slideshow = await loadSlideshow(tx, graphql, input.slideshowId);
    assertIdle(slideshow);
    const pending = pendingOf(slideshow);
    // The slide ids readSlides gave are kept, and the status shows the queued work.
    await tx.slideshow.update({ where: { slideshow_id: slideshow.slideshow_id }, data: { slides: jsonColumn(slideshow.slides), slideshow_status: "generating" } });
    const slideIds = pending.map((slide) => slide.slide_id);
    const operation = await queueOperation(slideshowVisualsOperation, { subjectId: slideshow.slideshow_id, input: { slide_ids: slideIds, format: slideshow.slideshow_format } });
    return { object: "slideshow_task" as const, task_id: operation.operation_id, kind: "slideshow_visuals" as const, slideshow_id: slideshow.slideshow_id, status: operation.status, slide_ids: slideIds };
  },
});
