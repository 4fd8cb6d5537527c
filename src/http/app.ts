// The service's one HTTP entry point: request ids, authentication, routing to GraphQL (/graphql)
// or REST (/api/v1), and the headers every response carries. Both surfaces get the same
// authenticated context and report failures in the same envelope.
import { createServerAdapter } from "@whatwg-node/server";
import type { IncomingMessage } from "node:http";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Config } from "../config.js";
import { ApiError } from "../errors/api-error.js";
import { toApiError, errorEnvelope } from "../errors/envelope.js";
import { newId } from "../ids.js";
import { runInRequestContext, type RequestContext } from "../context/request-context.js";
import { authenticate, credentialsFrom, livemodeClaimed } from "../auth/authenticate.js";
import type { GraphQLContext } from "../graphql/context.js";
import { createGraphQLHandler } from "../graphql/yoga.js";
import { getSchema } from "../graphql/schema.js";
import { createRestHandler } from "../../rest/handler.js";
import { errorResponse, jsonResponse } from "../../rest/responses.js";
import { healthBody, type HealthDependencies } from "../../rest/health.js";
import { API_BASE_PATH } from "../../rest/sofa.js";
import { MAX_BODY_BYTES, payloadTooLarge } from "../../rest/body.js";

export interface AppDependencies {
  prisma: PrismaClient;
  health: HealthDependencies;
  config: Pick<Config, "publicBaseUrl">;
}

interface NodeServerContext {
  req?: IncomingMessage;
}

function isGraphiQLPage(request: Request, url: URL): boolean {
  return request.method === "GET" && !url.searchParams.has("query") && (request.headers.get("accept") ?? "").includes("text/html");
}

/** GraphQL clients get the envelope and a GraphQL-shaped `errors` list in one body. */
function graphqlErrorResponse(error: ApiError): Response {
  const body = errorEnvelope(error);
  return jsonResponse({ ...body, errors: [{ message: body.error.message, extensions: body.error }] }, error.status, error.headers);
}

export function createApp(dependencies: AppDependencies) {
  const schema = getSchema();
  const graphql = createGraphQLHandler();
  const rest = createRestHandler(schema);

  async function route(request: Request, url: URL, context: RequestContext, serverContext: NodeServerContext): Promise<Response> {
    const path = url.pathname;
    if (path === `${API_BASE_PATH}/health`) {
      if (request.method !== "GET" && request.method !== "HEAD") {
        throw new ApiError("method_not_allowed", `${request.method} is not allowed on ${path}.`, { headers: { Allow: "GET, HEAD" } });
      }
      return jsonResponse(await healthBody(dependencies.health));
    }
    const isGraphQL = path === "/graphql";
    const isRest = path === API_BASE_PATH || path.startsWith(`${API_BASE_PATH}/`);
    if (!isGraphQL && !isRest) throw new ApiError("not_found", `No route ${request.method} ${path}.`);
    if (isGraphQL && isGraphiQLPage(request, url)) return graphql.fetch(request, serverContext as never);
    if (Number(request.headers.get("content-length") ?? "0") > MAX_BODY_BYTES) throw payloadTooLarge();

    const credentials = credentialsFrom(request.headers, serverContext.req?.socket.remoteAddress);
    context.livemodeHint = livemodeClaimed(credentials);
    const auth = await authenticate(dependencies.prisma, credentials);
    context.auth = auth;
    const graphqlContext: GraphQLContext = { prisma: dependencies.prisma, auth, requestId: context.requestId };

    if (isGraphQL) return graphql.fetch(request, { ...serverContext, graphqlContext } as never);
    // Batch members go through the whole service again, from the same connection.
    return rest(request, graphqlContext, (member) => handle(member, serverContext));
  }

  async function handle(request: Request, serverContext: NodeServerContext): Promise<Response> {
    const url = new URL(request.url);
    const context: RequestContext = {
      requestId: newId("request"),
      baseUrl: dependencies.config.publicBaseUrl ?? url.origin,
    };
    return runInRequestContext(context, async () => {
      let response: Response;
      try {
        response = await route(request, url, context, serverContext);
      } catch (error) {
        // The client went away mid-request: nobody will read an answer, and it is not a fault.
        if (request.signal?.aborted) return new Response(null, { status: 499 });
        const apiError = toApiError(error);
        response = url.pathname === "/graphql" ? graphqlErrorResponse(apiError) : errorResponse(apiError);
      }
      response.headers.set("X-Request-Id", context.requestId);
      const livemode = context.auth?.livemode ?? context.livemodeHint ?? true;
      if (!livemode) response.headers.set("X-Test-Mode", "true");
      return response;
    });
  }

  return createServerAdapter<NodeServerContext>(handle);
}

export type App = ReturnType<typeof createApp>;
