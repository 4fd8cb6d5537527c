// Values the contract fixes and several layers read: the video formats, page sizes and the
// request limits (docs/limits.md). Kept here, below every layer, so that the action catalog, the
// resources, REST and the account actions read one copy without importing each other.

/** The formats a video (and a template, a slideshow) can have. */
export const VIDEO_FORMATS = ["portrait", "landscape", "square"] as const;
export type VideoFormat = (typeof VIDEO_FORMATS)[number];

/** List pages (contract 4.2). */
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** Largest accepted request body. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
/** Items of one POST /{resource}/bulk (contract 4.4). */
export const MAX_BULK_ITEMS = 100;
/** Members of one POST /batch (contract 4.5). */
export const MAX_BATCH_MEMBERS = 20;

/** The request limits every key works within, as discovery (GET /api/v1) and account.limits report them. */
export const REQUEST_LIMITS = {
  page_size: { min: 1, max: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
  request_body_bytes: MAX_BODY_BYTES,
} as const;
