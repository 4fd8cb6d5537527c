// What the tools read from third-party sites (catalog rule 4.1.10: `forum` and `video_site` stand in
// for site names), and the one interface every site format implements. An adapter knows one
// public, documented format: which addresses are its own, and how to read a thread or a video from
// them. It fetches only through `SiteReader`, which goes through the URL guard.
import { ApiError } from "../../errors/api-error.js";
import { OutboundFetchError, type OutboundGuard } from "../../outbound/url-guard.js";
import { TooManyRedirectsError, guardedGet, headerOf } from "../../providers/guarded-get.js";

export interface SitePost {
  post_id: string;
  title: string;
  author: string | null;
  /** Plain text (HTML reduced to text). */
  body: string;
  score: number | null;
  created_at: string | null;
  url: string;
  comment_count: number | null;
}

export interface SiteComment {
  comment_id: string;
  author: string | null;
  body: string;
  score: number | null;
  created_at: string | null;
  /** The comment answered, or null for a reply to the post. */
  parent_id: string | null;
  /** 0 for a reply to the post. */
  depth: number;
}

export interface ForumThread {
  post: SitePost;
  comments: SiteComment[];
}

export interface CaptionCue {
  /** Seconds from the start of the video. */
  start: number;
  end: number;
  text: string;
}

export interface SiteVideo {
  video_id: string;
  title: string;
  author: string | null;
  url: string;
  thumbnail_url: string | null;
  /** The language of the caption track read. */
  language: string | null;
  captions: CaptionCue[];
}

export type SiteKind = "forum" | "video_site";

export interface ReadOptions {
  /** At most this many comments (forums). */
  limit: number;
}

/** One public page format of a kind of site. */
export interface SiteAdapter<Kind extends SiteKind, Result> {
  readonly kind: Kind;
  /** Names the format in answers and errors (`listing_json`, `discourse_json`, `oembed_timedtext`). */
  readonly format: string;
  /** What addresses of this format look like, for the 422 listing the formats there are. */
  readonly shape: string;
  /** The thread or video id when the address is one of this format's. */
  match(url: URL): string | undefined;
  read(reader: SiteReader, url: URL, id: string, options: ReadOptions): Promise<Result>;
}

export type ForumAdapter = SiteAdapter<"forum", ForumThread>;
export type VideoSiteAdapter = SiteAdapter<"video_site", SiteVideo>;

const MAX_PAGE_BYTES = 5 * 1024 * 1024;
const TIMEOUT_MS = 20_000;
const USER_AGENT = "Cutroom-SiteReader/1";

/**
 * Reads a site's public pages through the URL guard (redirects followed by hand, each hop checked).
 * The caller's address that cannot be read (refused by the guard, 4xx) is 400 invalid_request at
 * the input `param`; a site that fails, stalls or answers something unreadable is 502 upstream_error.
 */
export class SiteReader {
  constructor(private readonly outbound: OutboundGuard, readonly param: string, readonly format: string) {}

  failed(reason: string, message: string): ApiError {
    return new ApiError("upstream_error", `The ${this.format} page could not be read: ${message}`, { details: { site_format: this.format, reason } });
  }

  async text(url: string, accept: string): Promise<{ body: string; contentType: string }> {
    let answer;
    try {
      answer = await guardedGet(this.outbound, url, { timeoutMs: TIMEOUT_MS, maxResponseBytes: MAX_PAGE_BYTES + 1, headers: { accept, "user-agent": USER_AGENT } });
    } catch (error) {
      if (error instanceof TooManyRedirectsError) throw new ApiError("invalid_request", `${this.param} cannot be read: ${error.message}`, { param: this.param });
      if (error instanceof OutboundFetchError) {
        if (["timeout", "too_large", "connection_failed"].includes(error.reason)) throw this.failed(error.reason, error.message);
        throw new ApiError("invalid_request", `${this.param} cannot be read: ${error.message}`, { param: this.param, details: { reason: error.reason } });
      }
      throw error;
    }
    const { status, body, truncated } = answer.result;
    if (status === 429 || status >= 500) throw this.failed("http_status", `it answered HTTP ${status}.`);
    if (status >= 400) throw new ApiError("invalid_request", `${this.param} answered HTTP ${status}: the page is missing or not public.`, { param: this.param, details: { status } });
    if (status >= 300) throw this.failed("http_status", `it answered HTTP ${status} without a Location.`);
    if (truncated) throw this.failed("output_too_large", `it is larger than ${MAX_PAGE_BYTES} bytes.`);
    return { body: body.toString("utf8"), contentType: headerOf(answer.result, "content-type") ?? "" };
  }

  async json(url: string): Promise<unknown> {
    const { body } = await this.text(url, "application/json");
    try {
      return JSON.parse(body);
    } catch {
      throw this.failed("invalid_answer", "it is not JSON.");
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Small readers the adapters share.

export type Loose = Record<string, unknown>;

export const isObject = (value: unknown): value is Loose => typeof value === "object" && value !== null && !Array.isArray(value);
export const str = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null);
export const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** Seconds since 1970 (a float, as listings give them) as ISO 8601, or null. */
export function fromEpoch(seconds: unknown): string | null {
  const value = num(seconds);
  return value === null ? null : new Date(value * 1000).toISOString();
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Decodes HTML/XML character references (named basics, decimal, hex). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Collapses runs of spaces inside lines and blank-line runs; trims. */
export function tidy(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(/[ \t\u00a0]+/g, " ").replace(/ *\n */g, "\n").replace(/\n{3,}/g, "\n\n").trim();
}
