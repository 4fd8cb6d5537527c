// /api/v1: what REST adds on top of the Sofa routes — route matching with 405s, JSON body
// reading, the list query grammar, sparse fieldsets, the POST alias of PATCH, and envelopes.
// Every resource route still executes the one GraphQL resolver set through Sofa.
import type { GraphQLSchema } from "graphql";
import { ApiError } from "../src/errors/api-error.js";
import type { GraphQLContext } from "../src/graphql/context.js";
import { readJsonBody } from "./body.js";
import { allowHeader, matchResourceRoute, type MatchedRoute } from "./routes.js";
import { API_BASE_PATH, createSofaHandler } from "./sofa.js";
import { fullRecordSelection, parseSelection } from "./selection.js";
import { assertOnlyParams, validateListQuery } from "./list-query.js";
import { jsonResponse, withEnvelope } from "./responses.js";
import { describeKeyAccess } from "./discovery.js";
import { buildOpenApiDocument } from "./openapi.js";

function methodNotAllowed(method: string, path: string, allow: string): ApiError {
  return new ApiError("method_not_allowed", `${method} is not allowed on ${API_BASE_PATH}${path}.`, {
    headers: { Allow: allow },
    details: { allowed_methods: allow.split(", ") },
  });
}

async function envelope(response: Response, headOnly: boolean): Promise<Response> {
  if (response.status >= 400) return response;
  const body = (await response.json()) as Record<string, unknown>;
  const enveloped = jsonResponse(withEnvelope(body), response.status);
  return headOnly ? new Response(null, { status: enveloped.status, headers: enveloped.headers }) : enveloped;
}

export function createRestHandler(schema: GraphQLSchema) {
  const sofa = createSofaHandler(schema);
  let openApi: Record<string, unknown> | undefined;
  const openApiDocument = () => (openApi ??= buildOpenApiDocument(sofa));

  async function handleResource(request: Request, url: URL, path: string, route: MatchedRoute, context: GraphQLContext) {
    const method = request.method === "HEAD" ? "GET" : request.method;
    const operation = route.operations.get(method);
    if (!operation) throw methodNotAllowed(request.method, path, allowHeader(route));

    let body: string | undefined;
    let selection = fullRecordSelection(route.resource);
    if (operation.rootType === "Query") {
      const isList = operation.route === "list";
      if (isList) validateListQuery(url.searchParams);
      else assertOnlyParams(url.searchParams, ["fields"]);
      selection = parseSelection(route.resource, url.searchParams, isList);
    } else {
      assertOnlyParams(url.searchParams, []);
      if (operation.route !== "delete") body = JSON.stringify({ input: (await readJsonBody(request)) ?? {} });
    }

    // The POST alias is served by the PATCH operation.
    const sofaRequest = new Request(url, {
      method: operation.method,
      headers: { "content-type": "application/json" },
      body,
    });
    const response = await sofa.fetch(sofaRequest, { graphqlContext: context, selection });
    return envelope(response, request.method === "HEAD");
  }

  return async function handleRest(request: Request, context: GraphQLContext): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.slice(API_BASE_PATH.length).replace(/\/+$/, "") || "/";
    const isRead = request.method === "GET" || request.method === "HEAD";

    if (path === "/") {
      if (!isRead) throw methodNotAllowed(request.method, "", "GET, HEAD");
      return jsonResponse(withEnvelope(describeKeyAccess(context.auth)));
    }
    if (path === "/openapi.json") {
      if (!isRead) throw methodNotAllowed(request.method, path, "GET, HEAD");
      return jsonResponse(openApiDocument());
    }
    const route = matchResourceRoute(path);
    if (!route) throw new ApiError("not_found", `No route ${request.method} ${API_BASE_PATH}${path}.`);
    return handleResource(request, url, path, route, context);
  };
}

export type RestHandler = ReturnType<typeof createRestHandler>;
