// The last pass over the OpenAPI document, so that strict tools take it (ajv in strict mode,
// Redocly's recommended rules, Spectral's spectral:oas): `nullable` always beside a `type`, no
// sibling beside a `$ref`, a summary on every operation, every tag defined, the headers every
// answer carries, the statuses the service really answers, the export media types, bounds and
// enums on the list parameters, no unused component, and a `{base_url}` server variable
// (docs/discovery.md).
import { ERROR_CODES } from "../src/errors/codes.js";
import { MAX_PAGE_SIZE } from "../src/contract.js";

type Json = Record<string, any>;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** The headers of an answer (components.headers), by the statuses that carry them. */
export const RESPONSE_HEADERS: Json = {
  "X-Request-Id": { description: "The request's id; equal to the body's request_id (error.request_id on a failure).", schema: { type: "string" } },
  "X-RateLimit-Limit": { description: "Units the tightest rate window consumed allows.", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Units left in that window.", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Unix seconds when that window resets.", schema: { type: "integer" } },
  "X-RateLimit-Window": { description: "The window reported: minute, hour, day or credits_day.", schema: { type: "string" } },
  "X-RateLimit-Policy": { description: "Every window of the key, as `limit;w=seconds` entries.", schema: { type: "string" } },
  "X-Test-Mode": { description: "`true` when an sk_test_ key made the request (absent otherwise).", schema: { type: "string", enum: ["true"] } },
  "Idempotent-Replayed": { description: "`true` when the answer is the stored one of an earlier request with the same Idempotency-Key.", schema: { type: "string", enum: ["true"] } },
  "Retry-After": { description: "Seconds to wait before retrying (429, and 409 idempotency_in_progress).", schema: { type: "integer" } },
};

const COMMON_HEADERS = ["X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Window", "X-RateLimit-Policy", "X-Test-Mode"];

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

function errorResponse(status: number): Json {
  return {
    description: Object.entries(ERROR_CODES).filter(([, spec]) => spec.status === status).map(([code]) => code).join(", "),
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  };
}

/** The type a `$ref` names, for the `type` a nullable reference needs beside it. */
function referencedType(document: Json, ref: string): string | undefined {
  const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
  const target = name ? document.components?.schemas?.[name] : undefined;
  if (!target) return undefined;
  if (typeof target.type === "string") return target.type;
  if (target.allOf || target.oneOf || target.anyOf || target.properties) return "object";
  return undefined;
}

/** Rewrites one schema (and everything under it) in place. */
function strictSchema(document: Json, schema: Json): Json {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return schema;
  // A $ref takes no siblings: keep them around an allOf of it.
  if (schema.$ref && Object.keys(schema).length > 1) {
    const { $ref, ...siblings } = schema;
    schema = { allOf: [{ $ref }], ...siblings };
  }
  if (schema.nullable === true) {
    const ref = schema.allOf?.length === 1 ? schema.allOf[0].$ref : undefined;
    const type = schema.type ?? (ref ? referencedType(document, ref) : undefined);
    if (ref && type) {
      // `nullable` does not reach into an allOf (OpenAPI 3.0.3), so a nullable reference is the
      // referenced schema or a null of its type.
      const rest: Json = { ...schema };
      for (const key of ["allOf", "nullable", "type"]) delete rest[key];
      schema = { ...rest, anyOf: [{ $ref: ref }, { type, nullable: true, enum: [null] }] };
    } else if (type) {
      schema.type = type;
      // An enum holds every allowed value, null included.
      if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
    }
    // Any JSON value (no type): null is one of them already.
    else delete schema.nullable;
  }
  for (const key of ["properties", "patternProperties"]) {
    if (schema[key]) for (const [name, value] of Object.entries<Json>(schema[key])) schema[key][name] = strictSchema(document, value);
  }
  for (const key of ["items", "additionalProperties", "not"]) {
    if (schema[key] && typeof schema[key] === "object") schema[key] = strictSchema(document, schema[key]);
  }
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    if (Array.isArray(schema[key])) schema[key] = schema[key].map((item: Json) => strictSchema(document, item));
  }
  return schema;
}

function firstSentence(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const sentence = /^(.+?[.!?])(\s|$)/.exec(text.trim())?.[1] ?? text.trim();
  return sentence.length > 120 ? `${sentence.slice(0, 117)}…` : sentence;
}

function strictOperation(document: Json, path: string, method: string, operation: Json): void {
  operation.summary = firstSentence(operation.summary) ?? firstSentence(operation.description) ?? `${method.toUpperCase()} ${path}`;
  const unsafe = method !== "get" && method !== "head";
  const isAction = path.startsWith("/actions/");
  const statuses = new Set(Object.keys(operation.responses ?? {}));
  const add = (status: number) => {
    if (!statuses.has(String(status))) operation.responses[String(status)] = errorResponse(status);
  };
  // Statuses every route can answer: a spent window, a fault of the service; every unsafe one a
  // reused Idempotency-Key; an action a provider's failure and, when it spends, a short balance.
  if (path !== "/health") {
    add(429);
    add(500);
  }
  if (unsafe) add(409);
  if (isAction) {
    add(502);
    if (/Spends \d+ credit/.test(operation.description ?? "")) add(402);
  }
  for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
    if (response.$ref) continue;
    const headers: Json = { ...(response.headers ?? {}) };
    for (const name of COMMON_HEADERS) headers[name] ??= headerRef(name);
    if (status === "429" || status === "409") headers["Retry-After"] ??= headerRef("Retry-After");
    if (unsafe && Number(status) < 500) headers["Idempotent-Replayed"] ??= headerRef("Idempotent-Replayed");
    response.headers = headers;
    for (const media of Object.values<Json>(response.content ?? {})) if (media.schema) media.schema = strictSchema(document, media.schema);
  }
  if (operation.requestBody?.content) {
    for (const media of Object.values<Json>(operation.requestBody.content)) if (media.schema) media.schema = strictSchema(document, media.schema);
  }
  for (const parameter of operation.parameters ?? []) {
    if (parameter.schema) parameter.schema = strictSchema(document, parameter.schema);
    if (parameter.in !== "query") continue;
    if (parameter.name === "limit") parameter.schema = { ...parameter.schema, type: "integer", minimum: 1, ...(path.startsWith("/actions/") ? {} : { maximum: MAX_PAGE_SIZE }) };
    if (parameter.name === "order") parameter.schema = { ...parameter.schema, type: "string", enum: ["asc", "desc"] };
    if (parameter.name === "offset") parameter.schema = { ...parameter.schema, type: "integer", minimum: 0 };
  }
}

/**
 * Drops the component schemas no operation reaches (GraphQL types REST never answers with, input
 * scalars a typed body replaced): Redocly's no-unused-components, Spectral's oas3-unused-component.
 */
function pruneUnusedSchemas(document: Json): void {
  const schemas: Json = document.components?.schemas ?? {};
  const reached = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      const name = key === "$ref" && typeof value === "string" ? /^#\/components\/schemas\/(.+)$/.exec(value)?.[1] : undefined;
      if (name === undefined) visit(value);
      else if (!reached.has(name)) {
        reached.add(name);
        visit(schemas[name]);
      }
    }
  };
  visit(document.paths);
  visit(document.components?.headers);
  for (const name of Object.keys(schemas)) if (!reached.has(name)) delete schemas[name];
}

/**
 * Makes the document strict, in place; `sortable` gives each list path's sort fields (an enum
 * on its `sort` parameter), `exportable` the list paths that answer ndjson and csv.
 */
export function strictOpenApi(document: Json, lists: Map<string, { sortable: readonly string[] }>): Json {
  document.components ??= {};
  document.components.headers = { ...(document.components.headers ?? {}), ...RESPONSE_HEADERS };
  for (const [name, schema] of Object.entries<Json>(document.components.schemas ?? {})) document.components.schemas[name] = strictSchema(document, schema);
  const tags = new Set<string>();
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      for (const tag of operation.tags ?? []) tags.add(tag);
      strictOperation(document, path, method, operation);
      const list = method === "get" ? lists.get(path) : undefined;
      if (!list) continue;
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === "query" && parameter.name === "sort") parameter.schema = { ...parameter.schema, type: "string", enum: [...list.sortable] };
      }
      const ok = operation.responses?.["200"];
      if (ok?.content) {
        ok.content["application/x-ndjson"] ??= { schema: { type: "string", description: "One JSON record per line (format=ndjson or Accept: application/x-ndjson)." } };
        ok.content["text/csv"] ??= { schema: { type: "string", description: "Flattened rows with a header line (format=csv or Accept: text/csv)." } };
      }
    }
  }
  pruneUnusedSchemas(document);
  document.tags = [...tags].sort().map((name) => ({ name, description: name === "platform" ? "Health, discovery, batch and this document." : name === "actions" ? "Actions of the catalog: /actions/{family}.{name}." : `The ${name} resource.` }));
  return document;
}

/** The checked-in copy names its server by a variable; a served copy by the address it was asked at. */
export function serversOf(baseUrl: string | undefined): Json[] {
  if (baseUrl) return [{ url: `${baseUrl.replace(/\/+$/, "")}/api/v1`, description: "This service." }];
  return [{ url: "{base_url}/api/v1", description: "Where the service runs.", variables: { base_url: { default: "http://localhost:3000", description: "The service's origin (CUTROOM_PUBLIC_BASE_URL)." } } }];
}
