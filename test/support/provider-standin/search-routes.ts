// SearXNG's JSON search (GET /searxng/search?format=json; 403 without the json format, as a real
// instance answers) and Tavily's search (POST /tavily/search, bearer key required).
import { wordsOf, type RouteDefinition } from "./protocol.js";

function hits(query: string, count: number) {
  const slug = wordsOf(query).join("-").toLowerCase() || "query";
  return Array.from({ length: count }, (_, index) => ({
    title: `${query} — result ${index + 1}`,
    url: `https://example.com/${slug}/${index + 1}`,
    content: `What the stand-in found about ${query} (${index + 1}).`,
    published: new Date(Date.UTC(2026, 0, 15 - index)).toISOString(),
  }));
}

export const searchRoutes: RouteDefinition[] = [
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
];
