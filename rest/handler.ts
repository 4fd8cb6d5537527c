// /api/v1: what REST adds on top of the Sofa routes — route matching with 405s, JSON body
// reading, the list query grammar, formats, sparse fieldsets, the POST alias of PATCH, and
// envelopes. Every resource route still executes the one GraphQL resolver set through Sofa.
// This file dispatches a path to its route module (rest/handlers/).
import type { GraphQLSchema } from "graphql";
import type { GraphQLContext } from "../src/graphql/context.js";
import { readJsonBody } from "./body.js";
import { matchRoute } from "./routes.js";
import { API_BASE_PATH, createOperationRunner, createSofaHandler } from "./sofa.js";
import { assertOnlyParams } from "./list-query.js";
import { jsonResponse, methodNotAllowed, withEnvelope } from "../src/web/responses.js";
import { describeKeyAccess } from "./discovery.js";
import { buildOpenApiDocument, servedOpenApiDocument } from "./openapi.js";
import { runBatch, type Dispatch } from "./batch.js";
import { resourceByName } from "../src/registry/resources.js";
import type { Response } from "../src/response.js";
import { logRoute, type CallOperation } from "./handlers/shared.js";
import { routeNotFound } from "./handlers/not-found.js";
import { assertStorablePathParams, assertStorableQuery } from "./handlers/storable.js";
import { handleBulk } from "./handlers/bulk.js";
import { handleRoute } from "./handlers/route.js";

export function createRestHandler(schema: GraphQLSchema) {
  // Sofa's router is built once, for the OpenAPI description; requests run the one operation
  // the route table matched (rest/sofa.ts, createOperationRunner).
  let sofa: ReturnType<typeof createSofaHandler> | undefined;
  let openApi: Record<string, unknown> | undefined;
  const openApiDocument = () => (openApi ??= buildOpenApiDocument((sofa ??= createSofaHandler(schema))));
  const runOperation = createOperationRunner(schema);
  const call: CallOperation = (context, target, url, selection, body, wholeResult) => runOperation(target, url, context, { selection, body, wholeResult });

  async function handleRest(request: Request, context: GraphQLContext, dispatch: Dispatch): Promise<Response> {
    const requested = new URL(request.url);
    const path = requested.pathname.slice(API_BASE_PATH.length).replace(/\/+$/, "") || "/";
    // An empty segment (`/api/v1//videos`) names no route, even though the segments around it do.
    if (path !== "/" && path.split("/").slice(1).includes("")) throw routeNotFound(request.method, path);
    assertStorableQuery(requested.searchParams);
    // Everything below (Sofa included) sees the canonical path: no trailing slash.
    const url = new URL(`${API_BASE_PATH}${path === "/" ? "" : path}${requested.search}`, requested);
    const isRead = request.method === "GET" || request.method === "HEAD";

    if (path === "/batch") {
      logRoute(path);
      if (request.method !== "POST") throw methodNotAllowed(request.method, `${API_BASE_PATH}${path}`, "POST");
      assertOnlyParams(url.searchParams, []);
      return jsonResponse(withEnvelope(await runBatch(request, await readJsonBody(request), dispatch)));
    }
    const bulkOf = resourceByName(/^\/([a-z_]+)\/bulk$/.exec(path)?.[1] ?? "");
    if (bulkOf?.bulk) {
      if (request.method !== "POST") throw methodNotAllowed(request.method, `${API_BASE_PATH}${path}`, "POST");
      return handleBulk(call, request, url, bulkOf, context);
    }

    if (path === "/") {
      logRoute("");
      if (!isRead) throw methodNotAllowed(request.method, API_BASE_PATH, "GET, HEAD");
      return jsonResponse(withEnvelope(describeKeyAccess(context.auth, context.services.providers)));
    }
    if (path === "/openapi.json") {
      logRoute(path);
      if (!isRead) throw methodNotAllowed(request.method, `${API_BASE_PATH}${path}`, "GET, HEAD");
      return jsonResponse(servedOpenApiDocument(openApiDocument()));
    }
    const route = matchRoute(path);
    if (!route) throw routeNotFound(request.method, path);
    assertStorablePathParams(path, route);
    return handleRoute(call, request, url, path, route, context);
  }

  // The reference at /docs renders the same document without a key (src/reference/).
  return Object.assign(handleRest, { openApiDocument: () => servedOpenApiDocument(openApiDocument()) });
}
