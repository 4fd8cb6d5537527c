// The operations of slideshows (docs/operations.md), each driving one slideshow (its subject):
// - slideshow_visuals (slideshows.generate): draws the pending slides it names, one after the
//   other, through the image provider; each slide is written as soon as it is drawn (under a row
//   lock, so the caller's own edits of other slides are kept). The hold is settled to the slides
//   drawn (4 credits each). slideshow_status: generating → ready (every slide drawn) / draft, or failed.
// - slideshow_export (slideshows.export): the render of the export video, run by the render
//   pipeline itself (src/renders/render-operation.ts, unchanged: its render record moves queued →
//   rendering → completed with render.started / render.completed); on completion the slideshow
//   gets the MP4's link as export_url. slideshow_status: exporting → exported, or failed.
import { z } from "zod";
import type { Tx } from "../db/transaction.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import { defineOperationKind, type OperationRow } from "../operations/kind.js";
import { renderOperation } from "../renders/index.js";
import type { FileService } from "../storage/from-config.js";
import { drawStill, statusMoves, LINK_SECONDS, jsonColumn } from "../faceless/index.js";
import { isPending, readSlides, slidePrompt, type Slide } from "./slides.js";
import { slideshows } from "./resource.js";
import { recordUpdatedIn } from "../resources/service.js";

/** Credits of one slide drawn (the catalog's price of slideshows.generate, per item). */
export const CREDITS_PER_SLIDE = 4;

async function setStatus(tx: Tx, slideshowId: string, status: string, extra: { export_url?: string | null } = {}): Promise<void> {
  const { count } = await tx.slideshow.updateMany({ where: { slideshow_id: slideshowId }, data: { slideshow_status: status, ...extra } });
  if (count) await recordUpdatedIn(tx, slideshows, slideshowId);
}

/** Changes one slide under a row lock; the status follows from the slides unless given. */
async function changeSlide(prisma: PrismaClient, slideshowId: string, slideId: string, change: (slide: Slide) => Slide, status?: string): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT slideshow_id FROM slideshows WHERE slideshow_id = ${slideshowId} FOR UPDATE`;
    const row = await tx.slideshow.findUnique({ where: { slideshow_id: slideshowId }, select: { slides: true } });
    if (!row) return false;
    const slides = readSlides(row.slides);
    const found = slides.some((slide) => slide.slide_id === slideId);
    const next = slides.map((slide) => (slide.slide_id === slideId ? change(slide) : slide));
    await tx.slideshow.update({ where: { slideshow_id: slideshowId }, data: { slides: jsonColumn(next), slideshow_status: status ?? (next.every((slide) => !isPending(slide)) ? "ready" : "draft") } });
    await recordUpdatedIn(tx, slideshows, slideshowId);
    return found;
  });
}

/** The slideshow's status after its slides: ready when every one is drawn. */
async function settleStatus(prisma: PrismaClient, slideshowId: string): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const row = await tx.slideshow.findUnique({ where: { slideshow_id: slideshowId }, select: { slides: true } });
    if (row) await setStatus(tx, slideshowId, readSlides(row.slides).every((slide) => !isPending(slide)) ? "ready" : "draft");
  });
}

const visualsInput = z.strictObject({ slide_ids: z.array(z.string()).min(1), format: z.string() });

export const slideshowVisualsOperation = defineOperationKind({
  kind: "slideshow_visuals",
  queue: "image",
  input: visualsInput,
  maxAttempts: 2,
  ...statusMoves(setStatus, "generating"),
  async run(context, input) {
    const { prisma, files, operation } = context;
    const slideshowId = operation.subject_id;
    let drawn = 0;
    for (const [index, slideId] of input.slide_ids.entries()) {
      const row = await prisma.slideshow.findUnique({ where: { slideshow_id: slideshowId }, select: { slides: true } });
      const slide = readSlides(row?.slides).find((item) => item.slide_id === slideId);
      const prompt = slide && isPending(slide) ? slidePrompt(slide) : undefined;
      if (slide && typeof slide.image_key === "string" && slide.image_key.includes(operation.operation_id)) {
        drawn += 1; // drawn by an earlier attempt of this operation (a retake): kept, not drawn twice
      } else if (prompt) {
        const image = await drawStill(context.providers, files, `slideshows/${operation.workspace_id}/${slideshowId}/${slideId}-${operation.operation_id}`, prompt, input.format, context.signal);
        const kept = await changeSlide(prisma, slideshowId, slideId, (item) => ({ ...item, image_url: image.url, image_key: image.key, image_model: image.model, status: "ready" }), "generating");
        if (kept) {
          drawn += 1;
          await context.spent(drawn * CREDITS_PER_SLIDE);
        }
      }
      context.progress(((index + 1) / input.slide_ids.length) * 100);
    }
    await settleStatus(prisma, slideshowId);
    return { result: { slides_drawn: drawn }, creditsSpent: drawn * CREDITS_PER_SLIDE };
  },
});

const exportInput = z.strictObject({ render_id: z.string() });

/** The operation as the render pipeline sees it: its subject is the render. */
function asRender(operation: OperationRow): OperationRow {
  return { ...operation, subject_id: exportInput.parse(operation.input).render_id };
}

export const slideshowExportOperation = defineOperationKind({
  kind: "slideshow_export",
  queue: "render",
  input: exportInput,
  maxAttempts: 2,
  async onStart(tx, operation) {
    await renderOperation.onStart!(tx, asRender(operation));
    await setStatus(tx, operation.subject_id, "exporting");
  },
  async onProgress(prisma, operation, percent) {
    await renderOperation.onProgress!(prisma, asRender(operation), percent);
  },
  async run(context) {
    return renderOperation.run({ ...context, operation: asRender(context.operation) }, {});
  },
  async onComplete(tx, operation, settlement, services) {
    const render = asRender(operation);
    await renderOperation.onComplete(tx, render, settlement, services);
    const row = await tx.render.findUnique({ where: { render_id: render.subject_id }, select: { output_url: true, output_key: true } });
    const url = row?.output_key ? signedExport(services.files, row.output_key) : (row?.output_url ?? null);
    await setStatus(tx, operation.subject_id, url ? "exported" : "failed", { export_url: url });
  },
  async onFail(tx, operation, failure, settlement, services) {
    await renderOperation.onFail(tx, asRender(operation), failure, settlement, services);
    await setStatus(tx, operation.subject_id, "failed");
  },
  async onRetake(tx, operation) {
    await renderOperation.onRetake!(tx, asRender(operation));
  },
});

/** The export's link, valid as long as the links a composition holds. */
function signedExport(files: FileService, key: string): string {
  return files.signedUrl(key, LINK_SECONDS);
}
