// The provider stand-in: one node:http server on 127.0.0.1 (random port) that speaks the protocols
// the provider layer uses (OpenAI-compatible under /openai/v1, fal's queue under /fal, SearXNG,
// Tavily, ElevenLabs) with real media made by the project's ffmpeg, so tests drive the real
// adapters end to end. Every request is recorded (`calls()`); failures, slowness, rate limits and
// scripted answers are injected per route (docs/providers.md, "The stand-in").
//
//   const standIn = await startProviderStandIn();
//   const config = loadConfig({ ...standIn.env() });   // every provider points here
//   standIn.rateLimitNext("openai.chat", { times: 1, retryAfter: 0 });
import http from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { falRoutes, type FalJob } from "./fal-routes.js";
import { StandInMedia } from "./media.js";
import { openAiRoutes } from "./openai-routes.js";
import { elevenLabsRoutes } from "./elevenlabs-routes.js";
import { mediaWebRoutes } from "./media-web-routes.js";
import { searchRoutes } from "./search-routes.js";
import { siteRoutes } from "./site-routes.js";
import { errorBody, type RouteContext, type RouteDefinition, type RouteReply, type RouteRequest, type StandInCall, type StandInRoute } from "./protocol.js";

export type { StandInCall, StandInRoute } from "./protocol.js";
export { falKindOf } from "./fal-routes.js";
export { ELEVENLABS_SECONDS_PER_CHARACTER } from "./elevenlabs-routes.js";
export { ARTICLE_HTML } from "./media-web-routes.js";
export { SPEECH_SECONDS_PER_CHARACTER } from "./openai-routes.js";
export { instanceFor } from "./json-schema-instance.js";

/** The credentials env() hands out: distinctive, so a test can look for them where they must not be. */
export const STAND_IN_KEYS = {
  openai: "sk-standin-openai-0123456789",
  fal: "standin-fal-key-0123456789",
  elevenlabs: "standin-elevenlabs-key-0123456789",
  tavily: "tvly-standin-0123456789",
} as const;

export interface FailOptions {
  status: number;
  /** How many requests in a row fail (default 1). */
  times?: number;
  /** The error body; by default the provider family's own error shape. */
  body?: unknown;
  /** Seconds, sent as Retry-After. */
  retryAfter?: number;
  /** Requests to let through first (fail the second image of a batch, not the first). */
  after?: number;
}

export interface ProviderStandIn {
  /** Base URL, e.g. http://127.0.0.1:43123. */
  readonly url: string;
  /** Environment variables pointing every provider at the stand-in, for loadConfig({...env()}). */
  env(): Record<string, string>;
  /** Every request received, oldest first; narrowed to a route or by a predicate. */
  calls(filter?: StandInRoute | ((call: StandInCall) => boolean)): StandInCall[];
  /** Forgets the calls, the pending injections and the fal jobs (media files stay cached). */
  reset(): void;
  /** The next `times` requests to the route fail with this status. */
  failNext(route: StandInRoute, options: FailOptions): void;
  /** The next request to the route is answered only after `ms`. */
  slowNext(route: StandInRoute, ms: number): void;
  /** The next `times` requests to the route get 429 with Retry-After (seconds). */
  rateLimitNext(route: StandInRoute, options: { times?: number; retryAfter: number }): void;
  /**
   * Scripts the next answer of a route. Chat: the message content (an object is sent as its JSON);
   * transcriptions: the transcript text; fal.result, searxng, tavily: the whole response body.
   */
  answerNext(route: StandInRoute, json: unknown): void;
  close(): Promise<void>;
}

interface Pending {
  failures: (FailOptions & { left: number; pass: number })[];
  delays: number[];
  answers: unknown[];
}

/** The credential a request carries, whichever way its provider sends it. */
function credentialOf(headers: http.IncomingHttpHeaders): string | undefined {
  const authorization = headers.authorization;
  if (authorization) return authorization.replace(/^(Bearer|Key)\s+/i, "");
  const xi = headers["xi-api-key"];
  return typeof xi === "string" ? xi : undefined;
}

function send(response: http.ServerResponse, reply: RouteReply): void {
  if (response.destroyed) return;
  const isBytes = Buffer.isBuffer(reply.body) || reply.body instanceof Uint8Array;
  const body = isBytes ? Buffer.from(reply.body as Uint8Array) : typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
  const type = isBytes ? "application/octet-stream" : typeof reply.body === "string" ? "text/plain; charset=utf-8" : "application/json";
  response.writeHead(reply.status, { "content-type": type, ...reply.headers, "content-length": String(Buffer.byteLength(body)) });
  response.end(body);
}

export async function startProviderStandIn(): Promise<ProviderStandIn> {
  const media = await StandInMedia.create();
  const started = performance.now();
  const jobs = new Map<string, FalJob>();
  const routes: RouteDefinition[] = [...openAiRoutes, ...falRoutes(jobs), ...searchRoutes, ...elevenLabsRoutes, ...mediaWebRoutes, ...siteRoutes];
  let calls: StandInCall[] = [];
  const pending = new Map<StandInRoute, Pending>();
  const pendingFor = (route: StandInRoute): Pending => {
    let entry = pending.get(route);
    if (!entry) pending.set(route, (entry = { failures: [], delays: [], answers: [] }));
    return entry;
  };
  let baseUrl = "";

  async function handle(incoming: http.IncomingMessage, response: http.ServerResponse, body: Buffer): Promise<void> {
    const url = new URL(incoming.url ?? "/", "http://standin");
    const method = incoming.method ?? "GET";
    const definition = routes.find((item) => item.method === method && item.pattern.test(url.pathname));
    if (!definition) return send(response, { status: 404, body: { error: `the stand-in has no route ${method} ${url.pathname}` } });
    const match = definition.pattern.exec(url.pathname)!;
    const call: StandInCall = { route: definition.route, method, path: url.pathname, credential: credentialOf(incoming.headers), summary: {}, at: Math.round(performance.now() - started) };
    calls.push(call);
    const controls = pendingFor(definition.route);
    const answer = (reply: RouteReply) => {
      call.status = reply.status;
      send(response, reply);
    };

    const delay = controls.delays.shift();
    if (delay !== undefined) await sleep(delay);
    const failure = controls.failures[0];
    if (failure && failure.pass > 0) failure.pass--;
    else if (failure) {
      if (--failure.left <= 0) controls.failures.shift();
      const message = failure.status === 429 ? "Rate limit reached; slow down." : `The stand-in failed this request with ${failure.status} on purpose.`;
      return answer({
        status: failure.status,
        headers: failure.retryAfter !== undefined ? { "retry-after": String(failure.retryAfter) } : {},
        body: (failure.body as object | undefined) ?? errorBody(definition.route, failure.status, message),
      });
    }
    const request: RouteRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: incoming.headers,
      body,
      json() {
        try {
          return JSON.parse(body.toString("utf8"));
        } catch {
          return undefined;
        }
      },
      form: () => new Request("http://standin/", { method: "POST", headers: { "content-type": incoming.headers["content-type"] ?? "" }, body: new Uint8Array(body) }).formData(),
    };
    const context: RouteContext = {
      baseUrl,
      media,
      call,
      scripted: () => (controls.answers.length > 0 ? controls.answers.shift() : undefined),
    };
    answer(await definition.handler(request, context, match));
  }

  const server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      handle(incoming, response, Buffer.concat(chunks)).catch((error: unknown) => {
        send(response, { status: 500, body: { error: `stand-in fault: ${(error as Error).message}` } });
      });
    });
  });
  // A client that gives up (a timeout test) leaves a response nobody reads: not an error here.
  server.on("clientError", (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    env: () => ({
      OPENAI_API_KEY: STAND_IN_KEYS.openai,
      OPENAI_BASE_URL: `${baseUrl}/openai/v1`,
      FAL_KEY: STAND_IN_KEYS.fal,
      CUTROOM_FAL_BASE_URL: `${baseUrl}/fal`,
      ELEVENLABS_API_KEY: STAND_IN_KEYS.elevenlabs,
      CUTROOM_ELEVENLABS_BASE_URL: `${baseUrl}/elevenlabs`,
      SEARXNG_URL: `${baseUrl}/searxng`,
      TAVILY_API_KEY: STAND_IN_KEYS.tavily,
      CUTROOM_TAVILY_BASE_URL: `${baseUrl}/tavily`,
      // Fast polling and backoff, so long-running and retry tests take milliseconds, not seconds.
      CUTROOM_PROVIDER_POLL_INTERVAL_MS: "20",
      CUTROOM_PROVIDER_RETRY_BASE_MS: "50",
      // fal results point at the stand-in's /media, fetched through the URL guard.
      CUTROOM_OUTBOUND_ALLOW: "127.0.0.1",
    }),
    calls(filter) {
      if (!filter) return [...calls];
      return calls.filter(typeof filter === "string" ? (call) => call.route === filter : filter);
    },
    reset() {
      calls = [];
      pending.clear();
      jobs.clear();
    },
    failNext(route, options) {
      pendingFor(route).failures.push({ ...options, left: options.times ?? 1, pass: options.after ?? 0 });
    },
    slowNext(route, ms) {
      pendingFor(route).delays.push(ms);
    },
    rateLimitNext(route, { times = 1, retryAfter }) {
      pendingFor(route).failures.push({ status: 429, retryAfter, left: times, pass: 0 });
    },
    answerNext(route, json) {
      pendingFor(route).answers.push(json);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await media.remove();
    },
  };
}
