// The service's one HTTP entry point: request ids, authentication, the guards (rate windows,
// quota, idempotency, request log), routing to GraphQL (/graphql) or REST (/api/v1), and the
// headers every response carries. Both surfaces get the same authenticated context and report
// failures in the same envelope.
import { createServerAdapter } from "@whatwg-node/server";
import type { IncomingMessage } from "node:http";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Config } from "../config.js";
import { ApiError } from "../errors/api-error.js";
import { toApiError, errorEnvelope } from "../errors/envelope.js";
import { ERROR_CODES, isErrorCode } from "../errors/codes.js";
import { newId } from "../ids.js";
import { currentRequestContext, runInRequestContext, type RequestContext } from "../context/request-context.js";
import type { IdempotentRun } from "../context/request-context.js";
import { authenticate, credentialsFrom, livemodeClaimed } from "../auth/authenticate.js";
import { isWellFormedKey } from "../auth/key-secret.js";
import type { AuthContext } from "../context/auth-context.js";
import type { GraphQLContext, ServiceHandles } from "../graphql/context.js";
import { createGraphQLHandler } from "../graphql-endpoint/yoga.js";
import type { GraphQLSchema } from "graphql";
import { keyLimits, type Guards } from "../guards/guards.js";
import { RequestMeter } from "../guards/meter.js";
import { rateLimitHeaders } from "../guards/rate-limit.js";
import { fingerprintOf, REFUSAL_STATUSES } from "../guards/idempotency.js";
import { createRestHandler } from "../../rest/handler.js";
import { errorResponse, jsonResponse, methodNotAllowed } from "../web/responses.js";
import { healthBody, type HealthDependencies } from "../../rest/health.js";
import { API_BASE_PATH } from "../../rest/sofa.js";
import { MAX_BODY_BYTES } from "../contract.js";
import { assertDeclaredLengthWithin, carriesBody, withBufferedBody } from "../web/request-body.js";
import { createFilesHandler } from "../../rest/files.js";
import { recordRefusedActionCall } from "../../rest/action-refusals.js";
import { FILES_PATH_PREFIX } from "../storage/signed-urls.js";
import { createReferenceHandler, docsRouteName, isDocsPath } from "../reference/handler.js";
import { assertGraphQLHttpRequest } from "../graphql-endpoint/http-request.js";
import { keylessIntrospection } from "../graphql-endpoint/introspection.js";
import { answerMcp, MCP_PATH } from "../mcp/http.js";
import { logger } from "../logger.js";
import { createReviewHandler, isReviewPath, reviewRouteName } from "../scripts/review/handler.js";
import { Response } from "../response.js";

export interface AppDependencies {
  /** The one schema both surfaces serve (src/platform/schema.ts). */
  schema: GraphQLSchema;
  prisma: PrismaClient;
  health: HealthDependencies;
  guards: Guards;
  services: ServiceHandles;
  config: Pick<Config, "publicBaseUrl">;
}

interface NodeServerContext {
  req?: IncomingMessage;
}

const UNSAFE_METHODS = new Set(["POST", "PATCH", "PUT", "DELETE"]);

function isGraphiQLPage(request: Request, url: URL): boolean {
  return request.method === "GET" && !url.searchParams.has("query") && (request.headers.get("accept") ?? "").includes("text/html");
}

/** GraphQL clients get the envelope and a GraphQL-shaped `errors` list in one body. */
function graphqlErrorResponse(error: ApiError): Response {
  const body = errorEnvelope(error);
  return jsonResponse({ ...body, errors: [{ message: body.error.message, extensions: body.error }] }, error.status, error.headers);
}

/**
 * graphql-yoga answers a few refusals with a bare status and no body (406 for an Accept it cannot
 * serve, 415 for a body type it cannot read): they get the envelope like every other failure.
 */
function withGraphQLEnvelope(response: Response): Response {
  if (response.status < 400 || (response.headers.get("content-type") ?? "").includes("json")) return response;
  const error =
    response.status === 406
      ? new ApiError("unsupported_format", "GraphQL answers application/graphql-response+json, application/json, multipart/mixed or text/event-stream.", {
          headers: { Accept: response.headers.get("accept") ?? "application/json" },
        })
      : response.status === 415
        ? new ApiError("unsupported_media_type", "Send the GraphQL request as JSON with Content-Type: application/json.")
        : new ApiError("invalid_request", `The GraphQL request cannot be read (${response.status}); send a JSON body with Content-Type: application/json.`);
  return graphqlErrorResponse(error);
}

/** Codes of requests refused before they began executing (Stripe's rule for idempotency). */
function isRefusal(code: string): boolean {
  return isErrorCode(code) && REFUSAL_STATUSES.has(ERROR_CODES[code].status);
}

/**
 * The client hung up before its answer: nobody will read one, and it is not a fault of ours. It is
 * a debug line and a 499 in the request log, not an "unexpected fault" at error level.
 */
function clientAborted(request: Request, error: unknown): Response | undefined {
  if (!request.signal?.aborted) return undefined;
  logger.debug({ err: error, request_id: currentRequestContext()?.requestId, status: 499 }, "client closed the request");
  return new Response(null, { status: 499 });
}

function errorResponseFor(error: unknown, path: string, request: Request): Response {
  const aborted = clientAborted(request, error);
  if (aborted) return aborted;
  const apiError = toApiError(error);
  return path === "/graphql" ? graphqlErrorResponse(apiError) : errorResponse(apiError);
}

export function createApp(dependencies: AppDependencies) {
  const { guards } = dependencies;
  const { schema } = dependencies;
  const graphql = createGraphQLHandler(schema);
  const rest = createRestHandler(schema);
  const files = createFilesHandler(dependencies.services.files.storage, dependencies.services.files.signer.verify);
  const reference = createReferenceHandler({ openApiDocument: rest.openApiDocument });
  const review = createReviewHandler(dependencies.prisma);

  /**
   * Counts a request without a valid key against its address's window, keeping the headers to
   * report; 429 once the window is spent, unless `neverRefuse` (then the refusal's headers are kept).
   */
  async function chargeAnonymous(context: RequestContext, clientIp: string | undefined, options: { neverRefuse?: boolean } = {}): Promise<void> {
    try {
      context.anonymousRateHeaders = rateLimitHeaders([await guards.rateLimits.consumeAnonymous(clientIp ?? "unknown")]);
    } catch (error) {
      if (!options.neverRefuse) throw error;
      context.anonymousRateHeaders = error instanceof ApiError ? (error.headers ?? {}) : {};
    }
  }

  /** Authenticates; a request without a valid key counts against its address's window. */
  async function authenticateRequest(request: Request, context: RequestContext, clientIp: string | undefined): Promise<AuthContext> {
    const credentials = credentialsFrom(request.headers, clientIp);
    context.livemodeHint = livemodeClaimed(credentials);
    try {
      return await authenticate(dependencies.prisma, credentials, new Date(), guards.keyCache);
    } catch (error) {
      await chargeAnonymous(context, clientIp);
      throw error;
    }
  }

  /** Runs the request once its guards passed; failures become responses here. */
  async function execute(request: Request, url: URL, graphqlContext: GraphQLContext, serverContext: NodeServerContext): Promise<Response> {
    try {
      if (url.pathname === "/graphql") {
        // What /graphql cannot run is refused in our words first (src/graphql-endpoint/http-request.ts).
        const graphqlBody = await assertGraphQLHttpRequest(request, url);
        return withGraphQLEnvelope(await graphql.fetch(request, { ...serverContext, graphqlContext, graphqlBody } as never));
      }
      // Batch members go through the whole service again, from the same connection; their writes
      // are steps of the batch's Idempotency-Key, if it has one.
      const idempotency = currentRequestContext()?.idempotency;
      return await rest(request, graphqlContext, (member) => handle(member, serverContext, idempotency));
    } catch (error) {
      return errorResponseFor(error, url.pathname, request);
    }
  }

  async function route(request: Request, url: URL, context: RequestContext, serverContext: NodeServerContext, clientIp: string | undefined): Promise<Response> {
    const path = url.pathname;
    if (path === `${API_BASE_PATH}/health`) {
      context.route = path;
      // Health is always 200 (contract 4.6): its address is counted and reported, never refused.
      await chargeAnonymous(context, clientIp, { neverRefuse: true });
      if (request.method !== "GET" && request.method !== "HEAD") throw methodNotAllowed(request.method, path, "GET, HEAD");
      return jsonResponse(await healthBody(dependencies.health));
    }
    if (isDocsPath(path)) {
      // The reference and error codes pages hold only the contract: no key, counted like health.
      context.route = docsRouteName(path);
      await chargeAnonymous(context, clientIp, { neverRefuse: true });
      return reference(request, url);
    }
    if (isReviewPath(path)) {
      // A script's review link is its own permission (a minted token): no key; its address is
      // counted like any keyless request, and the token never reaches the request log.
      context.route = reviewRouteName(path);
      context.logPath = context.route;
      await chargeAnonymous(context, clientIp);
      return review(request, url);
    }
    if (path.startsWith(FILES_PATH_PREFIX)) {
      // A signed link is its own permission: no key; its address is counted like any keyless request.
      context.route = "/files/{key}";
      await chargeAnonymous(context, clientIp);
      return files(request);
    }
    if (path === MCP_PATH) {
      // MCP over Streamable HTTP (src/mcp/): the key as bearer; each tool call is an API request
      // of its own through this handler, with that key.
      context.route = MCP_PATH;
      await authenticateRequest(request, context, clientIp);
      request = await withBufferedBody(request, MAX_BODY_BYTES);
      context.bodyRead = true;
      return answerMcp(request, (inner) => handle(inner, serverContext));
    }
    const isGraphQL = path === "/graphql";
    const isRest = path === API_BASE_PATH || path.startsWith(`${API_BASE_PATH}/`);
    if (!isGraphQL && !isRest) throw new ApiError("not_found", `No route ${request.method} ${path}.`);
    if (isGraphQL) context.route = "/graphql";
    // OPTIONS stays yoga's (CORS preflight).
    if (isGraphQL && !["GET", "POST", "OPTIONS"].includes(request.method)) throw methodNotAllowed(request.method, path, "GET, POST");
    if (isGraphQL && isGraphiQLPage(request, url)) return graphql.fetch(request, serverContext as never);
    assertDeclaredLengthWithin(request, MAX_BODY_BYTES);

    // Introspection sent without a key (codegen; GraphiQL opening with its `Bearer <your key>`
    // template, which is no key) is answered like the reference: no key, counted against the
    // address (src/graphql-endpoint/introspection.ts). A well-formed key is checked as always.
    const credentials = credentialsFrom(request.headers, clientIp);
    if (isGraphQL && !(credentials.key && isWellFormedKey(credentials.key))) {
      const introspection = await keylessIntrospection(request, url);
      if (introspection) {
        await chargeAnonymous(context, clientIp);
        context.bodyRead = true;
        const anonymous: GraphQLContext = {
          prisma: dependencies.prisma,
          auth: { keyId: "", workspaceId: "", scopes: [], livemode: true },
          requestId: context.requestId,
          guards,
          services: dependencies.services,
        };
        return execute(introspection, url, anonymous, serverContext);
      }
    }

    const auth = await authenticateRequest(request, context, clientIp);
    context.auth = auth;
    const meter = new RequestMeter(
      { rateLimits: guards.rateLimits, quotas: guards.quotas, windowSeconds: guards.config.rateWindowSeconds },
      auth.keyId,
      keyLimits(guards, auth),
      auth.quota,
    );
    context.meter = meter;
    try {
      await meter.charge(1);
    } finally {
      // A refused request reports the quota standing too.
      await meter.loadQuota();
    }

    // Only a request its key may make is read, and at most MAX_BODY_BYTES of it (chunked included).
    request = await withBufferedBody(request, MAX_BODY_BYTES);
    context.bodyRead = true;

    const graphqlContext: GraphQLContext = { prisma: dependencies.prisma, auth, requestId: context.requestId, guards, services: dependencies.services };
    const idempotencyKey = request.headers.get("idempotency-key");
    if (idempotencyKey === null || !UNSAFE_METHODS.has(request.method)) return execute(request, url, graphqlContext, serverContext);

    const body = await request.clone().text();
    const outcome = await guards.idempotency.begin(auth.keyId, idempotencyKey, fingerprintOf(request.method, url, body), context.requestId);
    if (outcome.kind === "replay") {
      context.idempotentReplay = true;
      return outcome.response;
    }
    // Every write transaction of the request (batch members' included) is a step of the key.
    context.idempotency = outcome.run;
    const response = await execute(request, url, graphqlContext, serverContext);
    // Stored with the response, so a replay names the request that produced it.
    response.headers.set("X-Request-Id", context.requestId);
    // A refused request is not stored; REST says so by its status, GraphQL answers a refused
    // mutation with 200 and the refusal's code.
    const refused = url.pathname === "/graphql" && context.errorCode !== undefined && isRefusal(context.errorCode);
    return outcome.finish(response, { refused });
  }

  function setHeaders(response: Response, headers: Record<string, string>): void {
    // A header the response already carries (e.g. the window a 429 names) stays as it is.
    for (const [name, value] of Object.entries(headers)) if (!response.headers.has(name)) response.headers.set(name, value);
  }

  async function handle(request: Request, serverContext: NodeServerContext, idempotency?: IdempotentRun): Promise<Response> {
    const url = new URL(request.url);
    const started = performance.now();
    // Read once: the socket is gone once the client hangs up (a refused 28 MB upload, say).
    const clientIp = serverContext.req?.socket?.remoteAddress;
    const context: RequestContext = {
      requestId: newId("request"),
      baseUrl: dependencies.config.publicBaseUrl ?? url.origin,
      idempotency,
    };
    return runInRequestContext(context, async () => {
      let response: Response;
      try {
        response = await route(request, url, context, serverContext, clientIp);
      } catch (error) {
        response = errorResponseFor(error, url.pathname, request);
      }
      const refusal = recordRefusedActionCall(dependencies.prisma, context, url.pathname, response);
      if (refusal) (context.pendingWrites ??= []).push(refusal.catch((error: unknown) => logger.error({ err: error, request_id: context.requestId }, "action.failed of a refused call not recorded")));
      // An answer never overtakes the records it reports (e.g. action.failed of a scope refusal).
      if (context.pendingWrites) await Promise.allSettled(context.pendingWrites);
      if (context.idempotentReplay) {
        // The replayed body names the original request; the header stays equal to it.
        response.headers.set("X-Replay-Request-Id", context.requestId);
      } else {
        response.headers.set("X-Request-Id", context.requestId);
      }
      setHeaders(response, context.meter?.headers() ?? context.anonymousRateHeaders ?? {});
      const livemode = context.auth?.livemode ?? context.livemodeHint ?? true;
      if (!livemode) response.headers.set("X-Test-Mode", "true");
      // Answered before its body was read (refused key, spent window, too large): close rather
      // than drain a body nobody asked for.
      if (carriesBody(request) && !context.bodyRead) response.headers.set("Connection", "close");

      guards.requestLog.record({
        logged_request_id: context.requestId,
        workspace_id: context.auth?.workspaceId ?? null,
        key_id: context.auth?.keyId ?? null,
        method: request.method,
        route: context.route ?? url.pathname,
        path: context.logPath ?? url.pathname,
        status: response.status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        error_code: context.errorCode ?? null,
        ip: clientIp ?? null,
        user_agent: request.headers.get("user-agent")?.slice(0, 500) ?? null,
        idempotent_replay: context.idempotentReplay ?? false,
        request_livemode: livemode,
        created_at: new Date(),
      });
      return response;
    });
  }

  return createServerAdapter<NodeServerContext>(handle);
}

export type App = ReturnType<typeof createApp>;
