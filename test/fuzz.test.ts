// Property-based fuzzing of every route and of /graphql (issue "Reliability and security", 1): no
// malformed request may get a 5xx. Routes are enumerated from the registries — resources
// (src/registry/resources.ts + src/resources/operations.ts), platform operations
// (platformOperations()), bulk, batch, discovery — and GraphQL fields from the schema, so a route
// added later is fuzzed without touching this file. Inputs (test/support/fuzz-inputs.ts) are NUL
// bytes, lone surrogates, forged cursors, out-of-range dates, absurd nesting, odd paths and verbs.
// Seeded and bounded: the same requests every run, well under a minute in all.
import fc from "fast-check";
import { describe, expect, it, beforeAll } from "vitest";
import { getNamedType, isObjectType, isScalarType, isEnumType, type GraphQLField, type GraphQLObjectType } from "graphql";
import { getSchema } from "../src/platform/schema.js";
import { servedResources } from "../src/registry/resources.js";
import { resourceOperations } from "../src/resources/operations.js";
import { platformOperations } from "../src/registry/operations.js";
import { LIST_ARGUMENTS } from "../src/resources/list.js";
import { FILTER_OPERATORS } from "../src/resources/filters.js";
import { writableColumns, writableVirtualFields } from "../src/resources/fields.js";
import type { ResourceDefinition } from "../src/registry/resource.js";
import { createFixture, useService, type Fixture } from "./support/service.js";
import { sendRaw } from "./support/raw-http.js";
import { forgedCursor, nastyBody, nastyJson, nastyQuery, nastySegment, nastyString, toJsonText } from "./support/fuzz-inputs.js";

const service = useService({
  // Every fuzzed request must reach its route, not a spent rate window.
  rateLimits: { minute: 1_000_000, hour: 1_000_000, day: 1_000_000, credits_day: 1_000_000 },
});

const SEED = 20261126;
const RUNS_PER_ROUTE = 8;
const RUNS_PER_GRAPHQL_FIELD = 3;
const VERBS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

interface FuzzRoute {
  name: string;
  method: string;
  /** Relative to /api/v1, `:param` placeholders. */
  path: string;
  queryNames: readonly string[];
  /** Field names of a JSON body, or undefined for routes without one. */
  bodyFields?: readonly string[];
  sortFields?: readonly string[];
}

function listQueryNames(resource: ResourceDefinition): string[] {
  const filters = resource.filterable.flatMap((field) => [field, ...FILTER_OPERATORS.map((operator) => `${field}[${operator}]`)]);
  return [...Object.keys(LIST_ARGUMENTS), "fields", "expand", "format", ...filters];
}

function recordFields(resource: ResourceDefinition): string[] {
  return [...writableColumns(resource).map((field) => field.name), ...writableVirtualFields(resource)];
}

/** Every REST route the registries declare, plus the routes the REST layer adds itself. */
function restRoutes(): FuzzRoute[] {
  getSchema(); // platform operations register as their GraphQL fields are defined
  const routes: FuzzRoute[] = [];
  for (const resource of servedResources()) {
    for (const operation of resourceOperations(resource)) {
      const route = { method: operation.method, path: operation.path, name: `${operation.method} ${operation.path}` };
      if (operation.route === "list") routes.push({ ...route, queryNames: listQueryNames(resource), sortFields: resource.sortable });
      else if (operation.route === "get") routes.push({ ...route, queryNames: ["fields"] });
      else if (operation.route === "delete") routes.push({ ...route, queryNames: [] });
      else {
        routes.push({ ...route, queryNames: [], bodyFields: recordFields(resource) });
        if (operation.route === "update" && resource.postAlias) routes.push({ ...route, method: "POST", name: `POST ${operation.path}`, queryNames: [], bodyFields: recordFields(resource) });
      }
    }
    if (resource.bulk) routes.push({ name: `POST /${resource.name}/bulk`, method: "POST", path: `/${resource.name}/bulk`, queryNames: [], bodyFields: ["create", "update", "delete", "id", "data"] });
  }
  for (const operation of platformOperations()) {
    const documented = Object.keys((operation.inputDoc?.schema.properties as Record<string, unknown> | undefined) ?? {});
    const route = { name: `${operation.method} ${operation.path}`, method: operation.method, path: operation.path };
    if (operation.input === "body") routes.push({ ...route, queryNames: [], bodyFields: documented });
    else if (operation.input === "query") routes.push({ ...route, queryNames: operation.queryParams ?? [] });
    else if (operation.input === "query_input") routes.push({ ...route, queryNames: documented });
    else routes.push({ ...route, queryNames: [] });
  }
  routes.push(
    { name: "POST /batch", method: "POST", path: "/batch", queryNames: [], bodyFields: ["requests", "id", "method", "path", "body"] },
    { name: "GET (discovery)", method: "GET", path: "", queryNames: [] },
    { name: "GET /openapi.json", method: "GET", path: "/openapi.json", queryNames: [] },
    { name: "GET /health", method: "GET", path: "/health", queryNames: [] },
  );
  return routes;
}

/** Batch members that are wrong in every way a member can be. */
const nastyBatchBody = fc
  .array(
    fc.record(
      {
        id: fc.oneof(nastyString, fc.integer()),
        method: fc.oneof(fc.constantFrom(...VERBS, "TRACE", "CONNECT", "TRACK", "get", "BREW"), nastyString),
        path: fc.oneof(fc.constantFrom("/v1/videos", "/v1/videos/", "/v1//videos", "/v1/folders/x%00y", "/v1/batch", "/v1/../v1/videos", "/v1/videos?cursor=%00", "/v1/videos#x"), nastyString.map((text) => `/v1/${text}`)),
        body: nastyJson(["video_name", "folder_name"]),
      },
      { requiredKeys: ["id", "method", "path"] },
    ),
    { maxLength: 4 },
  )
  .map((requests) => ({ raw: toJsonText({ requests }) }));

let fixture: Fixture;
/** Real ids, so member routes get past "not found" some of the time. */
const knownIds: string[] = [];

beforeAll(async () => {
  fixture = await createFixture(service);
  const video = await fixture.client.post("/api/v1/videos", { video_name: "fuzz" });
  const folder = await fixture.client.post("/api/v1/folders", { folder_name: "fuzz" });
  knownIds.push(video.body.video_id, folder.body.folder_id);
});

/** A failure must come in the contract's envelope; nothing may be a fault of the service. */
function assertNoFault(label: string, status: number, text: string, headOnly: boolean): void {
  const shown = `${label}\n-> ${status} ${text.slice(0, 600)}`;
  expect(status, shown).toBeLessThan(500);
  // Batch members, bulk items and GraphQL errors carry their own statuses inside a 200/207.
  expect(/"code":\s*"internal_error"/.test(text), shown).toBe(false);
  if (status >= 400 && !headOnly) {
    let body: { error?: Record<string, unknown> } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      expect.fail(`not the error envelope: ${shown}`);
    }
    expect(body.error, shown).toMatchObject({ code: expect.any(String), type: expect.any(String), status, request_id: expect.any(String) });
  }
}

async function send(method: string, path: string, options: { body?: string; headers?: Record<string, string> } = {}): Promise<void> {
  const label = `${method} ${path}${options.body === undefined ? "" : ` body=${options.body.slice(0, 300)}`}`;
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${fixture.key}`, ...options.headers },
    body: method === "GET" || method === "HEAD" ? undefined : options.body,
  });
  assertNoFault(label, response.status, await response.text(), method === "HEAD");
}

function fillPath(pattern: string, segments: string[]): string {
  let index = 0;
  return pattern.replace(/:([a-z_]+)/g, () => segments[index++] ?? "x");
}

const routes = restRoutes();

describe("REST: no malformed request gets a 5xx", () => {
  it.each(routes.map((route, index) => [route.name, route, index] as const))("%s", async (_name, route, index) => {
    const paramCount = (route.path.match(/:/g) ?? []).length;
    const segment = fc.oneof({ weight: 4, arbitrary: nastySegment }, { weight: 1, arbitrary: fc.constantFrom(...knownIds) });
    const body = route.path === "/batch" ? nastyBatchBody : nastyBody(route.bodyFields ?? []);
    const request = fc.record({
      method: fc.oneof({ weight: 6, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom(...VERBS) }),
      segments: fc.array(segment, { minLength: paramCount, maxLength: paramCount }),
      query: nastyQuery(route.queryNames, route.sortFields ? forgedCursor(route.sortFields) : undefined),
      body: route.bodyFields ? body.map((value) => value.raw) : fc.option(nastyBody([]).map((value) => value.raw)),
      trailingSlash: fc.boolean(),
      contentType: fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin1"),
      accept: fc.constantFrom("*/*", "application/json", "text/csv", "application/x-ndjson", "image/png", "text/html"),
    });
    await fc.assert(
      fc.asyncProperty(request, async (input) => {
        const query = new URLSearchParams(input.query).toString();
        const path = `/api/v1${fillPath(route.path, input.segments)}${input.trailingSlash ? "/" : ""}${query ? `?${query}` : ""}`;
        await send(input.method, path, { body: input.body ?? undefined, headers: { "content-type": input.contentType, accept: input.accept } });
      }),
      { seed: SEED + index, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
    );
  });

  it("answers paths outside the route table, with stray slashes, dots and encodings, without a 5xx", async () => {
    const path = fc.array(fc.oneof(nastySegment, fc.constantFrom(...servedResources().map((resource) => resource.name)), fc.constant("bulk")), { maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(path, fc.constantFrom(...VERBS), async (segments, method) => {
        await send(method, `/api/v1/${segments.join("/")}`, { body: "{}", headers: { "content-type": "application/json" } });
      }),
      { seed: SEED, numRuns: 60, endOnFailure: true },
    );
  });
});

// ---- The request line ------------------------------------------------------------------------

describe("request lines: no target form or Host gets a 5xx", () => {
  it("answers asterisk-, absolute- and malformed targets with any verb in the envelope", async () => {
    const { host } = new URL(service.url);
    const pathOf = fc.oneof(
      fc.constantFrom(...routes.map((route) => `/api/v1${fillPath(route.path, knownIds)}`), "/graphql", "/api/v1/health", "/files/x", "/"),
      nastySegment.map((segment) => `/api/v1/${encodeURIComponent(segment)}`),
    );
    const target = fc.oneof(
      fc.constant("*"),
      pathOf,
      pathOf.map((path) => `http://${host}${path}`),
      fc.tuple(fc.constantFrom("http://", "https://", "HTTP://", "ftp://", "http:", "//", ""), fc.constantFrom("example.com", "[::1]:80", "[::1", "a@b", "", host), pathOf).map(([scheme, authority, path]) => `${scheme}${authority}${path}`),
      fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 30 }).map((text) => text.replace(/[\s]/g, "")).filter((text) => text.length > 0),
    );
    const request = fc.record({
      method: fc.constantFrom(...VERBS, "TRACE", "PROPFIND", "BREW"),
      target,
      host: fc.constantFrom(host, "localhost", "example.com:8080", "a/b", "[::1]", "x y", "@", "ex ample"),
    });
    await fc.assert(
      fc.asyncProperty(request, async (input) => {
        const head = `${input.method} ${input.target} HTTP/1.1\r\nhost: ${input.host}\r\nauthorization: Bearer ${fixture.key}\r\nconnection: close\r\n\r\n`;
        const answer = await sendRaw(service.url, head);
        // Node refuses a line it cannot parse before the app sees it: that is its 400 (src/http/client-errors.ts).
        assertNoFault(`${input.method} ${input.target} (Host: ${input.host})`, answer.status, answer.body, input.method === "HEAD" || answer.status === 204);
        expect(answer.status, JSON.stringify(input)).toBeGreaterThan(0);
      }),
      { seed: SEED, numRuns: 150, endOnFailure: true },
    );
  });
});

// ---- GraphQL ---------------------------------------------------------------------------------

/** A small selection for a field's type: a page's first record field, or a few scalar fields. */
function selectionFor(field: GraphQLField<unknown, unknown>): string {
  const type = getNamedType(field.type);
  if (!isObjectType(type)) return "";
  const scalars = (object: GraphQLObjectType) =>
    Object.values(object.getFields())
      .filter((candidate) => {
        const named = getNamedType(candidate.type);
        return (isScalarType(named) || isEnumType(named)) && candidate.args.every((arg) => !String(arg.type).endsWith("!"));
      })
      .slice(0, 3)
      .map((candidate) => candidate.name);
  const data = type.getFields().data;
  if (data && isObjectType(getNamedType(data.type))) {
    return `{ has_more next_cursor data { __typename ${scalars(getNamedType(data.type) as GraphQLObjectType).join(" ")} } }`;
  }
  return `{ __typename ${scalars(type).join(" ")} }`;
}

/** A GraphQL literal for any JSON value (object keys that are not names are dropped). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "0";
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([key]) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(key));
  return `{${entries.map(([key, item]) => `${key}: ${literal(item)}`).join(", ")}}`;
}

interface GraphQLRootField {
  operation: "query" | "mutation";
  field: GraphQLField<unknown, unknown>;
}

function graphqlRootFields(): GraphQLRootField[] {
  const schema = getSchema();
  return [
    ...Object.values(schema.getQueryType()!.getFields()).map((field) => ({ operation: "query" as const, field })),
    ...Object.values(schema.getMutationType()!.getFields()).map((field) => ({ operation: "mutation" as const, field })),
  ];
}

async function sendGraphQL(label: string, body: unknown): Promise<void> {
  const text = toJsonText(body);
  const response = await fetch(`${service.url}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${fixture.key}`, "content-type": "application/json" },
    body: text,
  });
  assertNoFault(`${label} ${text.slice(0, 400)}`, response.status, await response.text(), false);
}

describe("GraphQL: no malformed operation gets a 5xx or an internal_error", () => {
  const fields = graphqlRootFields();
  it.each(fields.map((root, index) => [`${root.operation} ${root.field.name}`, root, index] as const))("%s", async (_name, root, index) => {
    const argument = fc.record({ asVariable: fc.boolean(), include: fc.boolean(), value: nastyJson(["video_name", "folder_name", "limit", "cursor", "eq", "in", "gt"]) });
    const args = fc.array(argument, { minLength: root.field.args.length, maxLength: root.field.args.length });
    await fc.assert(
      fc.asyncProperty(args, async (values) => {
        const variables: Record<string, unknown> = {};
        const definitions: string[] = [];
        const written: string[] = [];
        root.field.args.forEach((arg, position) => {
          const choice = values[position]!;
          if (!choice.include && !String(arg.type).endsWith("!")) return;
          if (choice.asVariable) {
            definitions.push(`$v${position}: ${String(arg.type)}`);
            variables[`v${position}`] = choice.value;
            written.push(`${arg.name}: $v${position}`);
          } else {
            written.push(`${arg.name}: ${literal(choice.value)}`);
          }
        });
        const head = definitions.length > 0 ? `${root.operation} Fuzz(${definitions.join(", ")})` : root.operation;
        const call = written.length > 0 ? `${root.field.name}(${written.join(", ")})` : root.field.name;
        await sendGraphQL(root.field.name, { query: `${head} { ${call} ${selectionFor(root.field)} }`, variables });
      }),
      { seed: SEED + index, numRuns: RUNS_PER_GRAPHQL_FIELD, endOnFailure: true },
    );
  });

  it("answers documents that are not GraphQL, or are hostile GraphQL, without a 5xx", async () => {
    const hostile = fc.oneof(
      nastyString,
      fc.integer({ min: 1, max: 3000 }).map((depth) => `${"{ videos { data { ".repeat(depth)}`),
      fc.integer({ min: 1, max: 4000 }).map((depth) => `{ videos(q: ${"[".repeat(depth)}"x"${"]".repeat(depth)}) { object } }`),
      fc.integer({ min: 1, max: 2000 }).map((count) => `{ ${Array.from({ length: count }, (_, index) => `a${index}: __typename`).join(" ")} }`),
      fc.constantFrom("{ __schema { types { name } } }", "query { ...F } fragment F on Query { ...F }", "{ videos @include(if: true) @skip(if: false) { object } }"),
    );
    await fc.assert(
      fc.asyncProperty(hostile, nastyJson(), async (query, variables) => {
        await sendGraphQL("document", { query, variables });
      }),
      { seed: SEED, numRuns: 40, endOnFailure: true },
    );
  });

  it("answers requests GraphQL over HTTP cannot serve (verbs, body types, Accept) in the envelope", async () => {
    const request = fc.record({
      method: fc.constantFrom(...VERBS),
      contentType: fc.constantFrom("application/json", "text/plain", "application/graphql", "application/x-www-form-urlencoded", "multipart/form-data", ""),
      accept: fc.constantFrom("application/json", "image/png", "text/html", "application/graphql-response+json"),
      query: fc.constantFrom("{ __typename }", "mutation { __typename }", "subscription { events { type } }"),
    });
    await fc.assert(
      fc.asyncProperty(request, async (input) => {
        const response = await fetch(`${service.url}/graphql${input.method === "GET" || input.method === "HEAD" ? `?query=${encodeURIComponent(input.query)}` : ""}`, {
          method: input.method,
          headers: { authorization: `Bearer ${fixture.key}`, accept: input.accept, ...(input.contentType && { "content-type": input.contentType }) },
          body: input.method === "GET" || input.method === "HEAD" ? undefined : JSON.stringify({ query: input.query }),
        });
        assertNoFault(`${input.method} /graphql ${JSON.stringify(input)}`, response.status, await response.text(), input.method === "HEAD");
      }),
      { seed: SEED, numRuns: 40, endOnFailure: true },
    );
  });
});
