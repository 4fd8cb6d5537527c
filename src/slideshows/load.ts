// The caller's slideshow with its slides read (src/slideshows/slides.ts).
import type { Tx } from "../db/transaction.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { GraphQLContext } from "../graphql/context.js";
import { ApiError } from "../errors/api-error.js";
import { loadOwned } from "../resources/service.js";
import { slideshows } from "./resource.js";
import { MAX_SLIDES, readSlides, type Slide } from "./slides.js";

export interface LoadedSlideshow {
  slideshow_id: string;
  slideshow_name: string;
  slideshow_status: string;
  slideshow_format: string;
  slides: Slide[];
}

/** 404 / 403 as for every record; 400 when it has no slide or more than MAX_SLIDES. */
export async function loadSlideshow(client: PrismaClient | Tx, context: GraphQLContext, slideshowId: string): Promise<LoadedSlideshow> {
  const row = await loadOwned(client, context, slideshows, slideshowId, { select: { slideshow_id: true, slideshow_name: true, slideshow_status: true, slideshow_format: true, slides: true } });
  const slides = readSlides(row.slides);
  if (slides.length === 0) throw new ApiError("invalid_request", "The slideshow has no slides: add slides to it first.", { param: "slideshowId" });
  if (slides.length > MAX_SLIDES) throw new ApiError("invalid_request", `The slideshow has ${slides.length} slides; at most ${MAX_SLIDES} can be generated or exported.`, { param: "slideshowId" });
  return { ...(row as Omit<LoadedSlideshow, "slides">), slides };
}

/** Slideshow states in which generate or export would collide with work under way. */
export function assertIdle(slideshow: LoadedSlideshow): void {
  if (slideshow.slideshow_status === "generating" || slideshow.slideshow_status === "exporting") {
    throw new ApiError("conflict", `The slideshow is ${slideshow.slideshow_status}; wait for it to finish.`, { param: "slideshowId" });
  }
}
