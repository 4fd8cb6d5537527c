// Web search: a SearXNG instance's JSON API (GET /search?q=…&format=json, the model being the
// category searched) or Tavily (POST /search, the model being its search depth). Both are
// operator-configured endpoints, so they are fetched directly, with the hand adapters' retries.
import { z } from "zod";
import { ApiError } from "../../errors/api-error.js";
import { callMeta, fetchWithRetries, limitedCall } from "../call.js";
import { ProviderAnswerError } from "../errors.js";
import type { ModelChoice } from "../../config/providers.js";
import { retryPolicyOf, targetOf, type ProviderRuntime } from "../runtime.js";
import type { SearchHit, SearchProvider, SearchRequest } from "../types.js";

const MAX_RESULTS = 20;

function limitOf(request: SearchRequest): number {
  const limit = request.limit ?? 5;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RESULTS) throw new ApiError("invalid_request", `A search returns 1 to ${MAX_RESULTS} results.`, { param: "limit" });
  if (!request.query.trim()) throw new ApiError("invalid_request", "A search needs a query.", { param: "query" });
  return limit;
}

async function jsonOf<T>(response: Response, schema: z.ZodType<T>): Promise<T> {
  const parsed = schema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new ProviderAnswerError("its answer was not a list of results");
  return parsed.data;
}

const searxngAnswer = z.object({
  results: z.array(z.object({
    title: z.string().nullish(),
    url: z.string(),
    content: z.string().nullish(),
    publishedDate: z.string().nullish(),
  })),
});

export function searxngSearch(choice: ModelChoice, runtime: ProviderRuntime): SearchProvider {
  const settings = runtime.settings.searxng;
  if (!settings) throw new Error("The searxng adapter was built without SEARXNG_URL.");
  const target = targetOf(choice);
  const policy = retryPolicyOf(runtime.settings);
  return {
    async search(request, options) {
      const limit = limitOf(request);
      const query = new URLSearchParams({ q: request.query, format: "json", categories: choice.model });
      if (request.language) query.set("language", request.language);
      if (request.freshness) query.set("time_range", request.freshness);
      const { value, durationMs } = await limitedCall(target, runtime.settings.timeoutMs, options, async (signal) =>
        jsonOf(await fetchWithRetries(`${settings.baseUrl}/search?${query}`, { headers: { accept: "application/json" }, signal }, policy), searxngAnswer),
      );
      const results: SearchHit[] = value.results.slice(0, limit).map((hit) => ({
        title: hit.title ?? hit.url,
        url: hit.url,
        snippet: hit.content ?? "",
        ...(hit.publishedDate && { published_at: hit.publishedDate }),
      }));
      return { results, meta: callMeta(target, { requests: 1 }, durationMs) };
    },
  };
}

const tavilyAnswer = z.object({
  results: z.array(z.object({
    title: z.string().nullish(),
    url: z.string(),
    content: z.string().nullish(),
    published_date: z.string().nullish(),
  })),
});

export function tavilySearch(choice: ModelChoice, runtime: ProviderRuntime): SearchProvider {
  const settings = runtime.settings.tavily;
  if (!settings) throw new Error("The tavily adapter was built without TAVILY_API_KEY.");
  const target = targetOf(choice);
  const policy = retryPolicyOf(runtime.settings);
  return {
    async search(request, options) {
      const limit = limitOf(request);
      const body = {
        query: request.query,
        max_results: limit,
        search_depth: choice.model,
        ...(request.freshness && { time_range: request.freshness }),
      };
      const { value, durationMs } = await limitedCall(target, runtime.settings.timeoutMs, options, async (signal) =>
        jsonOf(
          await fetchWithRetries(`${settings.baseUrl}/search`, {
            method: "POST",
            headers: { authorization: `Bearer ${settings.apiKey.reveal()}`, "content-type": "application/json", accept: "application/json" },
            body: JSON.stringify(body),
            signal,
          }, policy),
          tavilyAnswer,
        ),
      );
      const results: SearchHit[] = value.results.slice(0, limit).map((hit) => ({
        title: hit.title ?? hit.url,
        url: hit.url,
        snippet: hit.content ?? "",
        ...(hit.published_date && { published_at: hit.published_date }),
      }));
      return { results, meta: callMeta(target, { requests: 1 }, durationMs) };
    },
  };
}
