// The files fal results point at (/media, and /media-moved, a redirect to one), and a few pages
// under /web for the page reader: an article with navigation and footer around it, a redirect to
// it, plain text, and a 404.
import type { RouteDefinition, RouteReply } from "./protocol.js";

export const ARTICLE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>How the stand-in reads | Example News</title>
<meta name="author" content="Ada Example"><style>body{font-family:sans-serif}</style>
<script>window.tracking = "should never appear";</script></head>
<body>
<nav><a href="/">Home</a> · <a href="/about">About</a> · <a href="/subscribe">Subscribe</a></nav>
<main><article>
<h1>How the stand-in reads</h1>
<p class="byline">By Ada Example</p>
<p>Readable pages keep their main text in an article element, surrounded by navigation, cookie banners and footers that a reader does not care about. This first paragraph is long enough to count as content for a readability parser, which scores blocks by their length and punctuation, commas included.</p>
<p>The second paragraph explains that the service fetches every page through its URL guard, so an address on a private network is refused before a single byte is sent, and a redirect is checked again at every hop.</p>
<h2>What comes back</h2>
<p>The third paragraph closes the article: the title, the byline when the page names one, and the text with a blank line between paragraphs, ready for a model to summarise or a script to quote.</p>
</article></main>
<footer><p>© Example News. All rights reserved. Cookie settings.</p></footer>
</body></html>`;

export const mediaWebRoutes: RouteDefinition[] = [
  {
    route: "media",
    method: "GET",
    pattern: /^\/media\/([\w.-]+)$/,
    async handler(_request, context, match) {
      const file = await context.media.byName(match[1]!);
      if (!file) return { status: 404, body: "no such media" };
      context.call.summary = { name: file.name };
      return { status: 200, headers: { "content-type": file.mediaType }, body: await context.media.bytes(file) };
    },
  },
  {
    // A CDN that answers with a redirect first, as storage front-ends do.
    route: "media",
    method: "GET",
    pattern: /^\/media-moved\/([\w.-]+)$/,
    async handler(_request, context, match) {
      context.call.summary = { moved: match[1] };
      return { status: 302, headers: { location: `/media/${match[1]}` }, body: "" };
    },
  },
  {
    route: "web",
    method: "GET",
    pattern: /^\/web\/([\w-]+)$/,
    async handler(_request, context, match): Promise<RouteReply> {
      context.call.summary = { page: match[1] };
      switch (match[1]) {
        case "article":
          return { status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: ARTICLE_HTML };
        case "redirect":
          return { status: 302, headers: { location: "/web/article" }, body: "" };
        case "plain":
          return { status: 200, headers: { "content-type": "text/plain; charset=utf-8" }, body: "Plain words.\n\nA second paragraph." };
        default:
          return { status: 404, headers: { "content-type": "text/html" }, body: "<h1>Not found</h1>" };
      }
    },
  },
];
