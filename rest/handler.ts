// /api/v1: what REST adds on top of the Sofa routes — route matching with 405s, JSON body
// reading, the list query grammar, formats, sparse fieldsets, the POST alias of PATCH, and
// envelopes. Every resource route still executes the one GraphQL resolver set through Sofa.
import type { GraphQLSchema } from "graphql";
import { ApiError } from "../src/errors/api-error.js";
import { validationFailed } from "../src/validation/issues.js";
import type { GraphQLContext } from "../src/graphql/context.js";
import { readJsonBody } from "./body.js";
import { allowHeader, matchRoute, type MatchedRoute } from "./routes.js";
import type { ResourceDefinition } from "../src/registry/resource.js";
import { openApiPath, pathSegments, type PlatformOperation } from "../src/registry/operations.js";
import { API_BASE_PATH, createOperationRunner, createSofaHandler, type OperationAnswer, type OperationTarget } from "./sofa.js";
import { fullRecordSelection, parseSelection, selectedColumns, type RecordSelection } from "./selection.js";
import { assertOnlyParams, outputFormatParam, parseListQuery } from "./list-query.js";
import { negotiateFormat, streamExport, type ListPageBody } from "./formats.js";
import { errorResponse, jsonResponse, methodNotAllowed, printWithEnvelope, withEnvelope } from "../src/web/responses.js";
import { describeKeyAccess } from "./discovery.js";
import { buildOpenApiDocument } from "./openapi.js";
import { actionNames } from "../src/actions/catalog.js";
import { didYouMean } from "../src/validation/did-you-mean.js";
import { runBulk } from "./bulk.js";
import { runBatch, type Dispatch } from "./batch.js";
import { resourceByName } from "../src/registry/resources.js";
import { currentRequestContext, type RequestContext } from "../src/context/request-context.js";
import { wantsJson } from "../src/actions/framework/binary.js";
import { SseChannel } from "../src/actions/framework/stream.js";
import { errorEnvelope, toApiError } from "../src/errors/envelope.js";
import { chargeWeight, EXPORT_WEIGHT } from "../src/guards/weights.js";
import { assertStorableParam } from "../src/validation/storable.js";
import { Response } from "../src/response.js";

/** Names the route in the request log (`/api/v1/videos/{video_id}`). */
function logRoute(pattern: string): void {
  const context = currentRequestContext();
  if (context) context.route = `${API_BASE_PATH}${pattern}`;
}

/** A record body: an empty body is an empty object; anything but an object is a 422. */
async function readRecordBody(request: Request): Promise<Record<string, unknown>> {
  const body = await readJsonBody(request);
  if (body === undefined) return {};
  if (!isRecordBody(body)) throw notAnObject();
  return body;
}

function isRecordBody(body: unknown): body is Record<string, unknown> {
  return body !== null && typeof body === "object" && !Array.isArray(body);
}

function notAnObject(): ApiError {
  return validationFailed([{ path: "", message: "The body must be a JSON object.", type: "object.base" }]);
}

/** 404 for an unknown path; an action the catalog declares but the service does not run yet says so. */
function routeNotFound(method: string, path: string): ApiError {
  const action = /^\/actions\/([^/]+)$/.exec(path)?.[1];
  if (action) {
    const declared = actionNames().includes(action);
    const suggestion = declared ? undefined : didYouMean(action, actionNames());
    return new ApiError(
      "not_found",
      declared
        ? `The action ${action} is in the catalog but not available yet.`
        : `No action named ${action}.${suggestion ? ` Did you mean ${suggestion}?` : ""}`,
      { param: "action", details: { action, available: false, ...(suggestion && { did_you_mean: suggestion }) } },
    );
  }
  return new ApiError("not_found", `No route ${method} ${API_BASE_PATH}${path}.`);
}

/** Query names and values reach SQL (filters, search, ids): none may hold what PostgreSQL refuses. */
function assertStorableQuery(query: URLSearchParams): void {
  for (const [name, value] of query) {
    assertStorableParam(name, name);
    assertStorableParam(name, value);
  }
}

/** A path parameter (a record id) holding what PostgreSQL refuses is a 400 naming the parameter. */
function assertStorablePathParams(path: string, route: MatchedRoute): void {
  const pattern = pathSegments([...route.targets.values()][0]!.operation.path);
  for (const [index, segment] of pathSegments(path).entries()) {
    const name = pattern[index]?.startsWith(":") ? pattern[index].slice(1) : "path";
    assertStorableParam(name, decodeURIComponent(segment));
  }
}

export function createRestHandler(schema: GraphQLSchema) {
  // Sofa's router is built once, for the OpenAPI description; requests run the one operation
  // the route table matched (rest/sofa.ts, createOperationRunner).
  let sofa: ReturnType<typeof createSofaHandler> | undefined;
  let openApi: Record<string, unknown> | undefined;
  const openApiDocument = () => (openApi ??= buildOpenApiDocument((sofa ??= createSofaHandler(schema))));
  const runOperation = createOperationRunner(schema);

  /** Runs one matched operation; failures come back as the error envelope with their status. */
  function callSofa(context: GraphQLContext, target: OperationTarget, url: URL, selection: RecordSelection | undefined, body?: Record<string, unknown>, wholeResult?: boolean) {
    return runOperation(target, url, context, { selection, body, wholeResult });
  }

  /** The operation's value with the envelope's members, printed once. */
  function envelope(answer: OperationAnswer, headOnly: boolean): Response {
    if (!answer.ok) return answer.response;
    const body = printWithEnvelope(answer.data);
    const headers = { "content-type": "application/json; charset=utf-8" };
    return new Response(headOnly ? null : body, { status: answer.status, headers });
  }

  async function handleList(request: Request, url: URL, resource: ResourceDefinition, operation: OperationTarget, context: GraphQLContext): Promise<Response> {
    const format = negotiateFormat(outputFormatParam(resource, url.searchParams), request.headers.get("accept"));
    const list = parseListQuery(resource, url.searchParams, { exporting: format !== "json" });
    const selection = parseSelection(resource, url.searchParams, true);
    const pageUrl = (overrides: Record<string, string | undefined>) => {
      const pageArgs = new URLSearchParams(list.arguments);
      for (const [name, value] of Object.entries(overrides)) {
        if (value === undefined) pageArgs.delete(name);
        else pageArgs.set(name, value);
      }
      if (list.filter) pageArgs.set("filter", JSON.stringify(list.filter));
      return new URL(`${url.pathname}?${pageArgs}`, url);
    };

    if (format === "json") {
      return envelope(await callSofa(context, operation, pageUrl({}), selection), request.method === "HEAD");
    }

    // Exports: `limit` caps the total (no page-size cap); pages of 100 are walked by cursor.
    await chargeWeight(EXPORT_WEIGHT);
    const max = list.arguments.has("limit") ? Number(list.arguments.get("limit")) : undefined;
    let first = true;
    const fetchPage = async (cursor: string | undefined, pageSize: number): Promise<ListPageBody> => {
      const overrides = first ? { limit: String(pageSize) } : { limit: String(pageSize), cursor, offset: undefined };
      first = false;
      const answer = await callSofa(context, operation, pageUrl(overrides), selection);
      if (!answer.ok) throw Object.assign(new Error("export page failed"), { response: answer.response });
      // The exporters write values as the JSON page shows them (dates as ISO strings).
      return JSON.parse(JSON.stringify(answer.data)) as ListPageBody;
    };
    try {
      return await streamExport(format, fetchPage, { columns: selectedColumns(resource, selection), max, filename: resource.name });
    } catch (error) {
      const failed = (error as { response?: Response }).response;
      if (failed) return failed;
      throw error;
    }
  }

  async function handleRoute(request: Request, url: URL, path: string, route: MatchedRoute, context: GraphQLContext) {
    const method = request.method === "HEAD" ? "GET" : request.method;
    const target = route.targets.get(method);
    if (!target) throw methodNotAllowed(request.method, `${API_BASE_PATH}${path}`, allowHeader(route));
    logRoute(openApiPath(target.operation.path));
    if (target.kind === "platform") return handlePlatform(request, url, target.operation, context);

    const { resource, operation } = target;
    if (operation.route === "list") return handleList(request, url, resource, operation, context);
    const sofaUrl = new URL(url.pathname, url);
    if (operation.rootType === "Query") {
      assertOnlyParams(url.searchParams, ["fields"]);
      const selection = parseSelection(resource, url.searchParams, false);
      return envelope(await callSofa(context, operation, sofaUrl, selection), request.method === "HEAD");
    }
    // Create and update answer the whole record unless `fields` narrows it (read before the write,
    // so an unknown field changes nothing); a deletion confirmation has nothing to narrow.
    const writesRecord = operation.route !== "delete";
    assertOnlyParams(url.searchParams, writesRecord ? ["fields"] : []);
    const selection = writesRecord ? parseSelection(resource, url.searchParams, false) : fullRecordSelection(resource);
    // REST sends the record itself; the GraphQL field takes it as `input`. The POST alias is
    // served by the PATCH operation.
    const body = writesRecord ? { input: await readRecordBody(request) } : undefined;
    return envelope(await callSofa(context, operation, sofaUrl, selection, body), false);
  }

  /** An operation outside the resource table: its body becomes `input`, or its query params its arguments. */
  async function handlePlatform(request: Request, url: URL, operation: PlatformOperation, context: GraphQLContext) {
    const sofaUrl = new URL(url.pathname, url);
    let body: Record<string, unknown> | undefined;
    if (operation.input === "query") {
      assertOnlyParams(url.searchParams, operation.queryParams ?? []);
      sofaUrl.search = url.search;
    } else if (operation.input === "query_input") {
      const input = operation.decodeQuery ? operation.decodeQuery(url.searchParams) : Object.fromEntries(url.searchParams);
      sofaUrl.searchParams.set("input", JSON.stringify(input));
    } else {
      assertOnlyParams(url.searchParams, []);
      if (operation.input === "body") body = { input: await readRecordBody(request) };
    }
    if (operation.streams && body?.input && (body.input as Record<string, unknown>).stream === true && !wantsJson(request.headers.get("accept"))) {
      return streamedAnswer(context, operation, sofaUrl, body);
    }
    // An action that answers a file sends its bytes, unless the client asked for JSON (a link).
    const binary = operation.binary && !wantsJson(request.headers.get("accept")) ? (currentRequestContext()?.binaryAnswer ?? noSlot()) : undefined;
    const answer = await callSofa(context, operation, sofaUrl, undefined, body, operation.fullSelection);
    if (binary?.file && answer.ok) return fileResponse(binary.file, request.method === "HEAD");
    return envelope(answer, request.method === "HEAD");
  }

  /**
   * Server-Sent Events of a streaming action (src/actions/framework/stream.ts): the stream goes
   * out once the handler opens it; the call's end is its last event. A call that ends before
   * opening it (refused, or a test key's quote) answers as JSON.
   */
  async function streamedAnswer(context: GraphQLContext, operation: PlatformOperation, sofaUrl: URL, body: Record<string, unknown>): Promise<Response> {
    const channel = new SseChannel();
    const request = currentRequestContext();
    if (request) request.streamAnswer = channel;
    const answer = callSofa(context, operation, sofaUrl, undefined, body, operation.fullSelection);
    await Promise.race([channel.opened, answer.catch(() => undefined)]);
    if (!channel.isOpen) return envelope(await answer, false);
    void answer
      .then(async (result) => channel.send(result.ok ? "done" : "error", result.ok ? withEnvelope((result.data ?? {}) as Record<string, unknown>) : await result.response.json()))
      .catch((error: unknown) => channel.send("error", errorEnvelope(toApiError(error))))
      .finally(() => channel.close());
    return new Response(channel.readable, { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" } });
  }

  /** A fresh slot in the request context for the bytes of a binary answer. */
  function noSlot(): NonNullable<RequestContext["binaryAnswer"]> {
    const context = currentRequestContext();
    const slot = {};
    if (context) context.binaryAnswer = slot;
    return slot;
  }

  function fileResponse(file: { data: Uint8Array; contentType: string; filename: string }, headOnly: boolean): Response {
    return new Response(headOnly ? null : new Uint8Array(file.data), {
      status: 200,
      headers: { "content-type": file.contentType, "content-length": String(file.data.byteLength), "content-disposition": `inline; filename="${file.filename}"` },
    });
  }

  async function handleBulk(request: Request, url: URL, resource: ResourceDefinition, context: GraphQLContext): Promise<Response> {
    logRoute(`/${resource.name}/bulk`);
    assertOnlyParams(url.searchParams, []);
    // Every item counts against the rate windows, like a request of its own.
    const result = await runBulk(resource, context.auth, await readJsonBody(request), chargeWeight, async (method, path, body) => {
      const target = new URL(`${API_BASE_PATH}${path}`, url);
      const route = matchRoute(path);
      const item = route?.targets.get(method);
      // An item the resource does not offer (an update of an asset) fails on its own, as its
      // route would.
      if (!route || item?.kind !== "resource") return errorResponse(methodNotAllowed(method, `${API_BASE_PATH}${path}`, route ? allowHeader(route) : ""));
      const operation = item.operation;
      // A bulk item is a body of its own: anything but an object is that item's 422.
      if (body !== undefined && !isRecordBody(body)) return errorResponse(notAnObject());
      const answer = await callSofa(context, operation, target, fullRecordSelection(resource), body === undefined ? undefined : { input: body });
      return answer.ok ? jsonResponse(answer.data, answer.status) : answer.response;
    });
    return jsonResponse(withEnvelope(result.body), result.status);
  }

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
      return handleBulk(request, url, bulkOf, context);
    }

    if (path === "/") {
      logRoute("");
      if (!isRead) throw methodNotAllowed(request.method, API_BASE_PATH, "GET, HEAD");
      return jsonResponse(withEnvelope(describeKeyAccess(context.auth, context.services.providers)));
    }
    if (path === "/openapi.json") {
      logRoute(path);
      if (!isRead) throw methodNotAllowed(request.method, `${API_BASE_PATH}${path}`, "GET, HEAD");
      return jsonResponse(openApiDocument());
    }
    const route = matchRoute(path);
    if (!route) throw routeNotFound(request.method, path);
    assertStorablePathParams(path, route);
    return handleRoute(request, url, path, route, context);
  }

  // The reference at /docs renders the same document without a key (src/reference/).
  return Object.assign(handleRest, { openApiDocument });
}
