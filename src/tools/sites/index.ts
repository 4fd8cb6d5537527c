// The site formats the tools read (src/tools/README.md): one adapter per public format, all behind
// SiteAdapter. An address is read by the first adapter that claims it; one that none claims is the
// caller's 422, listing the address shapes there are.
import type { OutboundGuard } from "../../outbound/url-guard.js";
import { validationFailed } from "../../validation/issues.js";
import { discourseJson } from "./discourse-json.js";
import { listingJson } from "./listing-json.js";
import { oembedTimedText } from "./oembed-timedtext.js";
import { SiteReader, type ForumThread, type SiteAdapter, type SiteKind, type SiteVideo } from "./site.js";

export type { CaptionCue, ForumThread, SiteComment, SitePost, SiteVideo } from "./site.js";

export const FORUM_ADAPTERS = [listingJson, discourseJson] as const;
export const VIDEO_SITE_ADAPTERS = [oembedTimedText] as const;

async function readWith<Result>(adapters: readonly SiteAdapter<SiteKind, Result>[], outbound: OutboundGuard, address: string, param: string, limit: number): Promise<{ format: string; result: Result }> {
  const url = new URL(address);
  for (const adapter of adapters) {
    const id = adapter.match(url);
    if (id !== undefined) return { format: adapter.format, result: await adapter.read(new SiteReader(outbound, param, adapter.format), url, id, { limit }) };
  }
  const shapes = adapters.map((adapter) => `${adapter.format}: ${adapter.shape}`);
  throw validationFailed([{ path: param, message: `Not an address of a site format read here. Formats: ${shapes.join("; ")}.`, type: "any.invalid", allowed: adapters.map((adapter) => adapter.format) }]);
}

/** A forum thread: its post and at most `limit` comments. */
export function readForumThread(outbound: OutboundGuard, address: string, param: string, limit: number): Promise<{ format: string; result: ForumThread }> {
  return readWith(FORUM_ADAPTERS, outbound, address, param, limit);
}

/** A video page: its oEmbed facts and one caption track. */
export function readVideoSite(outbound: OutboundGuard, address: string, param: string): Promise<{ format: string; result: SiteVideo }> {
  return readWith(VIDEO_SITE_ADAPTERS, outbound, address, param, 0);
}
