// Slideshows (catalog 4.4): what lives here. A slideshow's `slides` (the resource's JSON field,
// written by the caller through /api/v1/slideshows) are read as this shape: each slide an object
// with `text` and/or `prompt` (what to draw; `image_prompt` is read too), and once drawn
// `image_url` (a signed link) with `image_key`, `status` and `image_model`; `duration` (seconds,
// 1–60, default 4) is how long export shows it. Other keys a caller put on a slide are kept as
// they are. A slide is pending while it has no image. slideshows.generate draws the pending slides
// (slideshow_visuals operation), slideshows.export renders them into an MP4 (slideshow_export
// operation, the render pipeline).
import { ApiError } from "../errors/api-error.js";
import { newId } from "../ids.js";

export const DEFAULT_SLIDE_SECONDS = 4;
export const MAX_SLIDES = 30;

export type Slide = Record<string, unknown> & { slide_id: string };

const str = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : undefined);

/** The stored slides, each with a slide_id (given one when it had none); 422 when they are not a list of objects. */
export function readSlides(value: unknown): Slide[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value) || value.some((slide) => !slide || typeof slide !== "object" || Array.isArray(slide))) {
    throw new ApiError("invalid_request", "The slideshow's slides must be a list of objects.", { param: "slides" });
  }
  return (value as Record<string, unknown>[]).map((slide) => ({ ...slide, slide_id: str(slide.slide_id) ?? newId("slide") }));
}

/** What a slide's picture shows. */
export function slidePrompt(slide: Slide): string | undefined {
  return str(slide.prompt) ?? str(slide.image_prompt) ?? str(slide.text);
}

export const isPending = (slide: Slide) => !str(slide.image_url) && !str(slide.image_key);

export function slideSeconds(slide: Slide): number {
  const duration = slide.duration;
  return typeof duration === "number" && duration >= 1 && duration <= 60 ? duration : DEFAULT_SLIDE_SECONDS;
}

export const slideText = (slide: Slide) => str(slide.text);
export const slideKey = (slide: Slide) => str(slide.image_key);
export const slideUrl = (slide: Slide) => str(slide.image_url);
