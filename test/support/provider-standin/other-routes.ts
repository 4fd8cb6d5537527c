// The remaining stand-in routes: SearXNG's JSON search, Tavily's search, ElevenLabs speech with
// character timestamps, the /media files fal results point at, and a few /web pages (an article,
// a redirect to it, plain text, a 404) for the page reader.
import { wordsOf, type RouteDefinition, type RouteReply } from "./protocol.js";

/** Seconds each character of ElevenLabs speech takes in the stand-in's alignment. */
export const ELEVENLABS_SECONDS_PER_CHARACTER = 0.06;
const PCM_RATE = 44_100;

function hits(query: string, count: number) {
  const slug = wordsOf(query).join("-").toLowerCase() || "query";
  return Array.from({ length: count }, (_, index) => ({
    title: `${query} — result ${index + 1}`,
    url: `https://example.com/${slug}/${index + 1}`,
    content: `What the stand-in found about ${query} (${index + 1}).`,
    published: new Date(Date.UTC(2026, 0, 15 - index)).toISOString(),
  }));
}

/** Raw 16-bit mono PCM of a tone (what ElevenLabs' pcm_44100 returns). */
function pcmTone(seconds: number): Buffer {
  const samples = Math.max(1, Math.round(seconds * PCM_RATE));
  const pcm = Buffer.alloc(samples * 2);
  for (let index = 0; index < samples; index++) pcm.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * index) / PCM_RATE) * 8000), index * 2);
  return pcm;
}

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

export const otherRoutes: RouteDefinition[] = [
  {
    route: "searxng.search",
    method: "GET",
    pattern: /^\/searxng\/search$/,
    async handler(request, context) {
      const query = request.query.get("q") ?? "";
      context.call.model = request.query.get("categories") ?? "general";
      context.call.summary = { q: query, format: request.query.get("format"), language: request.query.get("language"), time_range: request.query.get("time_range") };
      // A SearXNG without the json format enabled answers 403, as the real one does.
      if (request.query.get("format") !== "json") return { status: 403, body: "Forbidden" };
      const scripted = context.scripted();
      if (scripted !== undefined) return { status: 200, body: scripted as object };
      const results = hits(query, 8).map((hit) => ({ url: hit.url, title: hit.title, content: hit.content, publishedDate: hit.published, engine: "standin", category: context.call.model }));
      return { status: 200, body: { query, number_of_results: results.length, results, answers: [], suggestions: [] } };
    },
  },
  {
    route: "tavily.search",
    method: "POST",
    pattern: /^\/tavily\/search$/,
    async handler(request, context) {
      const body = request.json() as { query?: string; max_results?: number; search_depth?: string; time_range?: string } | undefined;
      if (!context.call.credential) return { status: 401, body: { detail: { error: "Unauthorized: missing or invalid API key." } } };
      if (!body?.query) return { status: 400, body: { detail: { error: "query is required" } } };
      context.call.model = body.search_depth ?? "basic";
      context.call.summary = { query: body.query, max_results: body.max_results, time_range: body.time_range };
      const scripted = context.scripted();
      if (scripted !== undefined) return { status: 200, body: scripted as object };
      const results = hits(body.query, body.max_results ?? 5).map((hit, index) => ({ title: hit.title, url: hit.url, content: hit.content, score: 0.9 - index * 0.05, published_date: hit.published }));
      return { status: 200, body: { query: body.query, results, response_time: 0.01 } };
    },
  },
  {
    route: "elevenlabs.speech",
    method: "POST",
    pattern: /^\/elevenlabs\/v1\/text-to-speech\/([^/]+)\/with-timestamps$/,
    async handler(request, context, match) {
      const body = request.json() as { text?: string; model_id?: string; voice_settings?: { speed?: number }; language_code?: string } | undefined;
      if (!context.call.credential) return { status: 401, body: { detail: { status: "invalid_api_key", message: "Invalid API key" } } };
      if (!body?.text) return { status: 400, body: { detail: { status: "invalid_request", message: "text is required" } } };
      const format = request.query.get("output_format") ?? "mp3_44100_128";
      context.call.model = body.model_id;
      context.call.summary = { voice: decodeURIComponent(match[1]!), characters: body.text.length, output_format: format, speed: body.voice_settings?.speed, language_code: body.language_code };
      const characters = [...body.text];
      const seconds = characters.length * ELEVENLABS_SECONDS_PER_CHARACTER;
      let audio: Buffer;
      if (format.startsWith("pcm_")) audio = pcmTone(seconds);
      else if (format.startsWith("mp3_")) audio = await context.media.bytes(await context.media.audio(seconds, "mp3", 44_100));
      else return { status: 400, body: { detail: { status: "invalid_output_format", message: `unsupported ${format}` } } };
      const starts = characters.map((_, index) => Math.round(index * ELEVENLABS_SECONDS_PER_CHARACTER * 1000) / 1000);
      const ends = characters.map((_, index) => Math.round((index + 1) * ELEVENLABS_SECONDS_PER_CHARACTER * 1000) / 1000);
      const alignment = { characters, character_start_times_seconds: starts, character_end_times_seconds: ends };
      return { status: 200, body: { audio_base64: audio.toString("base64"), alignment, normalized_alignment: alignment } };
    },
  },
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
