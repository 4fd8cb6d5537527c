// The routes that take an API key, /graphql and /api/v1: authentication, the rate windows and
// quota, the body cap, the Idempotency-Key, then GraphQL or REST. Both surfaces get the same
// authenticated context.
import type { PrismaClient } from "../generated/prisma/client.js";
import type { GraphQLSchema } from "graphql";
import { ApiError } from "../errors/api-error.js";
import { currentRequestContext, type IdempotentRun, type RequestContext } from "../context/request-context.js";
import { authenticate, credentialsFrom, livemodeClaimed } from "../auth/authenticate.js";
import { isWellFormedKey } from "../auth/key-secret.js";
import type { AuthContext } from "../context/auth-context.js";
import type { GraphQLContext, ServiceHandles } from "../graphql/context.js";
import { createGraphQLHandler } from "../graphql-endpoint/yoga.js";
import { assertGraphQLHttpRequest } from "../graphql-endpoint/http-request.js";
import { keylessIntrospection } from "../graphql-endpoint/introspection.js";
import { answerMcp, MCP_PATH } from "../mcp/http.js";
import { keyLimits, type Guards } from "../guards/guards.js";
import { RequestMeter } from "../guards/meter.js";
import { fingerprintOf } from "../guards/idempotency.js";
import { createRestHandler } from "../../rest/handler.js";
import { API_BASE_PATH } from "../../rest/sofa.js";
import { methodNotAllowed } from "../web/responses.js";
import { MAX_BODY_BYTES } from "../contract.js";
import { assertDeclaredLengthWithin, withBufferedBody } from "../web/request-body.js";
import { errorResponseFor, isRefusal, withGraphQLEnvelope } from "./failures.js";
import type { ChargeAnonymous } from "./keyless-routes.js";
import type { Response } from "../response.js";

export interface NodeServerContext {
  req?: import("node:http").IncomingMessage;
}

const UNSAFE_METHODS = new Set(["POST", "PATCH", "PUT", "DELETE"]);

function isGraphiQLPage(request: Request, url: URL): boolean {
  return request.method === "GET" && !url.searchParams.has("query") && (request.headers.get("accept") ?? "").includes("text/html");
}

export interface ApiDependencies {
  schema: GraphQLSchema;
  prisma: PrismaClient;
  guards: Guards;
  services: ServiceHandles;
  chargeAnonymous: ChargeAnonymous;
  /** The whole service again, for batch members (same connection, same Idempotency-Key). */
  handle(request: Request, serverContext: NodeServerContext, idempotency?: IdempotentRun): Promise<Response>;
}

export type ApiRoutes = ((request: Request, url: URL, context: RequestContext, serverContext: NodeServerContext, clientIp: string | undefined) => Promise<Response>) & {
  openApiDocument: (this: void) => Record<string, unknown>;
};

export function createApiRoutes(dependencies: ApiDependencies): ApiRoutes {
  const { guards, chargeAnonymous } = dependencies;
  const graphql = createGraphQLHandler(dependencies.schema);
  const rest = createRestHandler(dependencies.schema);

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
      return await rest(request, graphqlContext, (member) => dependencies.handle(member, serverContext, idempotency));
    } catch (error) {
      return errorResponseFor(error, url.pathname, request);
    }
  }

  async function route(request: Request, url: URL, context: RequestContext, serverContext: NodeServerContext, clientIp: string | undefined): Promise<Response> {
    const path = url.pathname;
    if (path === MCP_PATH) {
      // MCP over Streamable HTTP (src/mcp/): the key as bearer; each tool call is an API request
      // of its own through the whole service, with that key.
      context.route = MCP_PATH;
      await authenticateRequest(request, context, clientIp);
      request = await withBufferedBody(request, MAX_BODY_BYTES);
      context.bodyRead = true;
      return answerMcp(request, (inner) => dependencies.handle(inner, serverContext));
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

  return Object.assign(route, { openApiDocument: rest.openApiDocument });
}
