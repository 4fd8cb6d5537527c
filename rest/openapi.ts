// The OpenAPI document of /api/v1: Sofa's generated description of the resource routes, with
// what REST adds on top (bodies sent as the record itself, the POST alias, sparse fieldsets,
// error envelopes, the routes outside GraphQL) and without Sofa's own webhook routes.
import { API_VERSION } from "../src/config.js";
import { ERROR_CODES } from "../src/errors/codes.js";
import { servedResources } from "../src/registry/resources.js";
import type { SofaHandler } from "./sofa.js";
import { openApiPath } from "../src/registry/operations.js";
import { servedOperations } from "../src/resources/served.js";
import type { ResourceDefinition } from "../src/registry/resource.js";
import { filterableFields, OPERATORS_BY_KIND, type FilterKind } from "../src/resources/filters.js";
import { MAX_BATCH_MEMBERS, MAX_BULK_ITEMS } from "../src/contract.js";
import { serversOf, strictOpenApi } from "./openapi-strict.js";
import { currentRequestContext } from "../src/context/request-context.js";
import { readableFieldNames, typeNameOf } from "../src/resources/fields.js";

type Json = Record<string, any>;

const ERROR_ENVELOPE_SCHEMA = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["type", "code", "message", "request_id"],
      properties: {
        type: { type: "string" },
        code: { type: "string", enum: Object.keys(ERROR_CODES) },
        status: { type: "integer" },
        message: { type: "string" },
        param: { type: "string" },
        details: { type: "object", additionalProperties: true },
        hint: { type: "string" },
        retryable: { type: "boolean" },
        livemode: { type: "boolean" },
        request_id: { type: "string" },
        doc_url: { type: "string" },
      },
    },
  },
};

function errorResponses(statuses: number[]): Json {
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: Object.entries(ERROR_CODES).filter(([, spec]) => spec.status === status).map(([code]) => code).join(", "),
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      },
    ]),
  );
}

const ENVELOPE_PROPERTIES = {
  livemode: { type: "boolean", description: "false when an sk_test_ key produced the response" },
  request_id: { type: "string", description: "equal to the X-Request-Id header" },
};

function addEnvelope(response: Json | undefined): void {
  const schema = response?.content?.["application/json"]?.schema;
  if (!schema) return;
  response.content["application/json"].schema = { allOf: [schema, { type: "object", properties: ENVELOPE_PROPERTIES }] };
}

function platformPaths(): Json {
  const json = (schema: Json) => ({ content: { "application/json": { schema } } });
  return {
    "/health": {
      get: {
        operationId: "health",
        tags: ["platform"],
        description: "Service health. Needs no key; always 200, a failing dependency shows in the body.",
        security: [],
        responses: {
          "200": {
            description: "health",
            ...json({
              type: "object",
              properties: {
                object: { type: "string", enum: ["health"] },
                status: { type: "string", enum: ["ok", "degraded"] },
                api_version: { type: "string" },
                checks: { type: "object", additionalProperties: { type: "object", properties: { status: { type: "string" }, latency_ms: { type: "number" } } } },
                time: { type: "string", format: "date-time" },
              },
            }),
          },
        },
      },
    },
    "/": {
      get: {
        operationId: "discovery",
        tags: ["platform"],
        description: "What this key can do: its workspace, scopes, the routes they open and the limits.",
        responses: { "200": { description: "api", ...json({ type: "object", additionalProperties: true }) }, ...errorResponses([401, 403]) },
      },
    },
    "/batch": {
      post: {
        operationId: "batch",
        tags: ["platform"],
        description: `Up to ${MAX_BATCH_MEMBERS} requests run in order, each through its own route with this key. Always 200; each member reports its own status, headers and body.`,
        requestBody: {
          required: true,
          ...json({
            type: "object",
            required: ["requests"],
            properties: {
              requests: {
                type: "array",
                maxItems: MAX_BATCH_MEMBERS,
                items: {
                  type: "object",
                  required: ["id", "method", "path"],
                  properties: { id: { type: "string" }, method: { type: "string" }, path: { type: "string", pattern: "^/v1/" }, body: { type: "object", additionalProperties: true } },
                },
              },
            },
          }),
        },
        responses: {
          "200": {
            description: "batch",
            ...json({
              type: "object",
              properties: {
                object: { type: "string", enum: ["batch"] },
                data: { type: "array", items: { type: "object", properties: { id: { type: "string" }, status: { type: "integer" }, headers: { type: "object", additionalProperties: { type: "string" } }, body: {} } } },
                ...ENVELOPE_PROPERTIES,
              },
            }),
          },
          ...errorResponses([400, 401, 403, 413, 415, 422]),
        },
      },
    },
    "/openapi.json": {
      get: {
        operationId: "openapi",
        tags: ["platform"],
        description: "This document.",
        responses: { "200": { description: "OpenAPI 3 document", ...json({ type: "object", additionalProperties: true }) }, ...errorResponses([401, 403]) },
      },
    },
  };
}

const FILTER_VALUE_SCHEMA: Record<FilterKind, Json> = {
  string: { type: "string" },
  number: { type: "number" },
  integer: { type: "integer" },
  boolean: { type: "boolean" },
  datetime: { type: "string", description: "ISO 8601 date or unix seconds" },
  string_list: { type: "string" },
};

/** REST filters: `field=value` or `field[op]=value`, i.e. OpenAPI deepObject parameters. */
function filterParameters(resource: ResourceDefinition): Json[] {
  // A field named like a list parameter (scripts' `format`) shares that parameter; its
  // description says how.
  return filterableFields(resource).filter((field) => field.name !== "format").map((field) => {
    const value = FILTER_VALUE_SCHEMA[field.kind];
    const operators = {
      type: "object",
      additionalProperties: false,
      properties: Object.fromEntries(
        OPERATORS_BY_KIND[field.kind].map((operator) => [
          operator,
          operator === "exists" ? { type: "boolean" } : operator === "in" || operator === "nin" ? { type: "string", description: "Comma-separated values." } : value,
        ]),
      ),
    };
    return {
      name: field.name,
      in: "query",
      required: false,
      style: "deepObject",
      explode: true,
      description: `Filter on ${field.name}: \`${field.name}=value\` (equal to${field.kind === "string_list" ? ": holds the value" : ""}) or \`${field.name}[op]=value\`; in and nin take comma-separated values.`,
      // The plain value is the `eq` shorthand, so a generated client takes either form.
      schema: { oneOf: [value, operators] },
    };
  });
}

function bulkOperation(resource: ResourceDefinition): Json {
  const json = (schema: Json) => ({ content: { "application/json": { schema } } });
  return {
    operationId: `bulk_${resource.name}`,
    tags: [resource.name],
    description: `Up to ${MAX_BULK_ITEMS} creates, updates and deletes of ${resource.name}; needs ${resource.scopeGroup}:write and ${resource.scopeGroup}:delete. Not a transaction: each item reports its own outcome; 200 when all succeeded, 207 otherwise.`,
    requestBody: {
      required: true,
      ...json({
        type: "object",
        properties: {
          create: { type: "array", maxItems: MAX_BULK_ITEMS, items: { type: "object", additionalProperties: true } },
          update: { type: "array", maxItems: MAX_BULK_ITEMS, items: { type: "object", required: ["id", "data"], properties: { id: { type: "string" }, data: { type: "object", additionalProperties: true } } } },
          delete: { type: "array", maxItems: MAX_BULK_ITEMS, items: { type: "string" } },
        },
      }),
    },
    responses: Object.fromEntries(
      ["200", "207"].map((status) => [
        status,
        {
          description: status === "200" ? "every item succeeded" : "at least one item failed",
          ...json({
            type: "object",
            properties: {
              object: { type: "string", enum: ["bulk_result"] },
              data: {
                type: "array",
                items: {
                  type: "object",
                  properties: {
                    index: { type: "integer" },
                    operation: { type: "string", enum: ["create", "update", "delete"] },
                    status: { type: "integer" },
                    id: { type: "string", nullable: true },
                    error: { type: "object", nullable: true, additionalProperties: true },
                  },
                },
              },
              succeeded: { type: "integer" },
              failed: { type: "integer" },
              ...ENVELOPE_PROPERTIES,
            },
          }),
        },
      ]).concat(Object.entries(errorResponses([400, 401, 403, 413, 415, 422]))),
    ),
  };
}

const ERROR_STATUSES: Record<string, number[]> = {
  list: [400, 401, 403, 406, 422, 429],
  get: [400, 401, 403, 404, 429],
  create: [400, 401, 403, 413, 415, 422, 429],
  update: [400, 401, 403, 404, 413, 415, 422, 429],
  delete: [400, 401, 403, 404, 429],
};

/**
 * GraphQL output types become component schemas; a field GraphQL may return null for is
 * optional there, and OpenAPI 3.0 needs `nullable` to say a present null is allowed.
 */
function outputSchemas(schemas: Json): Json {
  const result: Json = {};
  for (const [name, schema] of Object.entries(schemas)) {
    if (name === "Query" || name === "Mutation") continue;
    if (schema?.type !== "object" || !schema.properties) {
      result[name] = schema;
      continue;
    }
    const required = new Set<string>(schema.required ?? []);
    const properties: Json = {};
    for (const [field, property] of Object.entries<Json>(schema.properties)) {
      if (required.has(field)) properties[field] = property;
      else if (property.$ref) properties[field] = { allOf: [{ $ref: property.$ref }], nullable: true, ...(property.description && { description: property.description }) };
      else properties[field] = { ...property, nullable: true };
    }
    result[name] = { ...schema, properties };
  }
  return result;
}

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * The record as a list or a `fields=` selection answers it (docs/discovery.md): `object` and the id
 * are always there; a list leaves heavy fields out unless expanded, and `fields` keeps only what
 * it names. So only those two stay required, and a generated client promises nothing else.
 */
function partialView(resource: ResourceDefinition, record: Json): Json {
  const heavy = resource.heavy.length > 0 ? ` Lists leave out ${resource.heavy.join(", ")} unless \`expand\` or \`fields\` names them.` : "";
  return {
    ...structuredClone(record),
    required: (record.required ?? []).filter((name: string) => name === "object" || name === resource.idField),
    description: `A ${resource.kind} as a list or a \`fields\` selection answers it: \`object\` and ${resource.idField} are always there, other fields as selected.${heavy}`,
  };
}

/**
 * Lists answer partial records; a single record is whole unless `fields` narrows it, so its
 * answer is either view. Adds `<Type>Partial` to the schemas.
 */
function typePartialViews(paths: Json, schemas: Json): void {
  for (const served of servedOperations()) {
    if (served.kind !== "resource" || served.operation.route === "delete") continue;
    const { resource, operation } = served;
    const type = typeNameOf(resource);
    const partial = `${type}Partial`;
    if (!schemas[type]) throw new Error(`No schema ${type} for ${resource.name}`);
    if (!schemas[partial]) {
      // REST carries a referenced id, never the related record (rest/selection.ts): a relation
      // GraphQL marks non-null is not required here.
      const sent = new Set(["object", resource.idField, ...readableFieldNames(resource)]);
      const required = (schemas[type].required ?? []).filter((name: string) => sent.has(name));
      if (required.length > 0) schemas[type].required = required;
      else delete schemas[type].required;
      schemas[partial] = partialView(resource, schemas[type]);
    }
    const answer = paths[openApiPath(operation.path)]?.[operation.method.toLowerCase()]?.responses?.[String(operation.successStatus)]?.content?.["application/json"]?.schema;
    const view = answer?.allOf?.[0];
    if (operation.route === "list") {
      const list = schemas[/^#\/components\/schemas\/(.+)$/.exec(view?.$ref ?? "")?.[1] ?? ""];
      if (!list?.properties?.data?.items) throw new Error(`${resource.name}: no list schema to type`);
      list.properties.data.items = schemaRef(partial);
    } else if (view?.$ref === schemaRef(type).$ref) {
      answer.allOf[0] = { anyOf: [schemaRef(type), schemaRef(partial)] };
    } else {
      throw new Error(`${operation.method} ${operation.path}: the answer is not a ${type}`);
    }
  }
}

/** Sofa's operation as REST serves it: the body is the `input` argument itself. */
function restOperation(generated: Json, operationId: string): Json {
  const entry: Json = { ...generated, operationId, summary: generated.description };
  const body = entry.requestBody?.content?.["application/json"]?.schema;
  // Sofa lists every argument in the body, path parameters included; REST reads those from the path.
  const pathParameters = new Set((entry.parameters ?? []).filter((parameter: Json) => parameter.in === "path").map((parameter: Json) => parameter.name as string));
  const bodyFields = Object.keys(body?.properties ?? {}).filter((name) => !pathParameters.has(name));
  // REST sends the record itself; Sofa describes the GraphQL `input` argument around it, required
  // only when the argument is.
  if (body?.properties?.input) entry.requestBody = { required: (body.required ?? []).includes("input"), content: { "application/json": { schema: body.properties.input } } };
  else if (body && bodyFields.length === 0) delete entry.requestBody;
  // Sofa also lists the GraphQL `input` argument as a query parameter; REST never reads it there.
  entry.parameters = (entry.parameters ?? []).filter((parameter: Json) => !(parameter.in === "query" && parameter.name === "input"));
  for (const response of Object.values(entry.responses ?? {})) addEnvelope(response as Json);
  return entry;
}

export function buildOpenApiDocument(sofa: SofaHandler): Json {
  const source = structuredClone((sofa as unknown as { openAPIDocument: Json }).openAPIDocument);
  const paths: Json = {};
  // One walk of the served operations: a resource route gets its REST parameters, a platform
  // operation its own description and (for GET actions) one query parameter per input field.
  for (const served of servedOperations()) {
    if (served.kind === "resource") {
      const { resource, operation } = served;
      const path = openApiPath(operation.path);
      const generated = source.paths?.[path]?.[operation.method.toLowerCase()];
      if (!generated) throw new Error(`Sofa produced no ${operation.method} ${path}`);
      const entry = restOperation(generated, operation.fieldName);
      // Reads have no GraphQL description of their own.
      const kind = resource.kind.replace(/_/g, " ");
      if (operation.route === "list") entry.description ||= `List ${resource.name.replace(/_/g, " ")}. Filter, sort and search; choose fields with \`fields\` and heavy fields with \`expand\`; or export every match as ndjson or csv.`;
      if (operation.route === "get") entry.description ||= `Get a ${kind} by its ${resource.idField}. \`fields\` narrows the answer.`;
      if (operation.route === "get" || operation.route === "list") {
        entry.parameters = [
          // `filter` is GraphQL's argument; REST spells filters as query parameters.
          ...(entry.parameters ?? []).filter((parameter: Json) => parameter.name !== "filter"),
          ...(operation.route === "list" ? filterParameters(resource) : []),
          { name: "fields", in: "query", required: false, schema: { type: "string" }, description: "Comma-separated sparse fieldset." },
          ...(operation.route === "list"
            ? [
                { name: "expand", in: "query", required: false, schema: { type: "string" }, description: `Comma-separated heavy fields to include: ${resource.heavy.join(", ") || "none"}.` },
                {
                  name: "format",
                  in: "query",
                  required: false,
                  schema: resource.filterable.includes("format") ? { type: "string" } : { type: "string", enum: ["json", "ndjson", "csv"] },
                  description:
                    "json pages (default), or an ndjson / csv export of every matching record (then `limit` caps the total). Also chosen by Accept." +
                    (resource.filterable.includes("format") ? ` On ${resource.name}, any other value (or format[op]=value) filters on the ${resource.kind}'s own format field.` : ""),
                },
              ]
            : []),
        ];
      }
      if (operation.route === "create" || operation.route === "update") {
        // Writes answer the whole record unless `fields` narrows the answer (docs/lists.md).
        entry.parameters = [...(entry.parameters ?? []), { name: "fields", in: "query", required: false, schema: { type: "string" }, description: "Comma-separated fields of the answer (the id and object are always there); the write itself is unchanged." }];
      }
      entry.responses = { ...entry.responses, ...errorResponses(ERROR_STATUSES[operation.route]!) };
      paths[path] ??= {};
      paths[path][operation.method.toLowerCase()] = entry;
      if (operation.route === "update" && resource.postAlias) {
        paths[path].post = { ...entry, operationId: `${operation.fieldName}_post`, description: `Alias of PATCH ${path}.` };
      }
      continue;
    }
    const operation = served.operation;
    const path = openApiPath(operation.path);
    const generated = source.paths?.[path]?.[operation.method.toLowerCase()];
    if (!generated) throw new Error(`Sofa produced no ${operation.method} ${path}`);
    const entry = restOperation(generated, operation.fieldName);
    entry.description = operation.description;
    // REST reads no body as `{}`: a body is required when its schema has required fields.
    const bodySchema = operation.inputDoc?.schema;
    if (entry.requestBody && bodySchema) entry.requestBody.required = ((bodySchema.required as unknown[] | undefined) ?? []).length > 0;
    if (operation.input === "query_input") {
      // GET actions: each input field is a query parameter of its own.
      const schema: Json = operation.inputDoc?.schema ?? { properties: {} };
      entry.parameters = Object.entries<Json>(schema.properties ?? {}).map(([name, property]) => ({
        name,
        in: "query",
        required: (schema.required ?? []).includes(name),
        schema: property,
        ...(property.type === "array" && { style: "form", explode: false }),
      }));
    }
    if (operation.streams && entry.responses?.["200"]?.content) {
      const ok = entry.responses["200"];
      ok.description = "The result; with `stream: true` (and an Accept that does not ask for JSON only), Server-Sent Events: `start`, `delta` pieces of text, then `done` with this result or `error` with the error envelope.";
      ok.content = { ...ok.content, "text/event-stream": { schema: { type: "string" } } };
    }
    if (operation.binary && entry.responses?.["200"]?.content) {
      // The file itself by default; its BinaryFile record (with a signed link) with Accept: application/json.
      const ok = entry.responses["200"];
      ok.description = "The file's bytes with their content type; with `Accept: application/json`, the BinaryFile record and a signed link to it.";
      ok.content = { "*/*": { schema: { type: "string", format: "binary" } }, ...ok.content };
    }
    entry.responses = { ...entry.responses, ...errorResponses(operation.method === "GET" ? [400, 401, 403, 404, 422, 429] : [400, 401, 403, 404, 409, 413, 415, 422, 429]) };
    paths[path] ??= {};
    paths[path][operation.method.toLowerCase()] = entry;
  }
  for (const resource of servedResources().filter((candidate) => candidate.bulk)) {
    paths[`/${resource.name}/bulk`] = { post: bulkOperation(resource) };
  }
  const schemas = { ...outputSchemas(source.components?.schemas ?? {}), Error: ERROR_ENVELOPE_SCHEMA };
  typePartialViews(paths, schemas);
  const lists = new Map<string, { sortable: readonly string[] }>();
  for (const served of servedOperations()) {
    if (served.kind === "resource" && served.operation.route === "list") lists.set(openApiPath(served.operation.path), { sortable: served.resource.sortable });
  }
  return strictOpenApi({
    openapi: source.openapi,
    info: {
      title: "Cutroom API",
      version: API_VERSION,
      description: "The API of the Cutroom video and media production workspace. Every route needs a key except /health.",
    },
    servers: serversOf(undefined),
    security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    paths: { ...platformPaths(), ...paths },
    components: {
      ...source.components,
      schemas,
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "Authorization: Bearer sk_live_... or sk_test_..." },
        apiKeyHeader: { type: "apiKey", in: "header", name: "X-Api-Key" },
      },
    },
  }, lists);
}

/**
 * The document as served: its server is the address the request reached (or
 * CUTROOM_PUBLIC_BASE_URL), absolute, so a tool routes to it; the checked-in copy keeps the
 * `{base_url}` variable.
 */
export function servedOpenApiDocument(document: Json): Json {
  return { ...document, servers: serversOf(currentRequestContext()?.baseUrl || undefined) };
}
