// Answer shapes the site-reading tools share (src/tools/sites/site.ts holds the types they mirror).
import { z } from "zod";

export const sitePostShape = z.object({
  post_id: z.string(),
  title: z.string(),
  author: z.string().nullable(),
  body: z.string().describe("Plain text."),
  score: z.number().nullable(),
  created_at: z.string().nullable(),
  url: z.string(),
  comment_count: z.number().int().nullable().describe("Comments the site counts on the post (not only those returned)."),
});

export const siteCommentShape = z.object({
  comment_id: z.string().describe("The site's id of the comment; tools.write_lyrics keeps it on each line."),
  author: z.string().nullable(),
  body: z.string().describe("Plain text."),
  score: z.number().nullable(),
  created_at: z.string().nullable(),
  parent_id: z.string().nullable().describe("The comment this one answers; null for a reply to the post."),
  depth: z.number().int(),
});

export const siteFormat = z.string().describe("The site format read: `listing_json`, `discourse_json` or `oembed_timedtext`.");
