// Checks against the checked-in OpenAPI document with ajv in strict mode: every schema of it
// compiles, and a real answer (status, headers, media type, body) is one the document describes.
// Shared by test/openapi-strict.test.ts (the document) and test/openapi-corpus.test.ts (answers).
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { printedContracts } from "../../src/platform/contracts.js";
import type { ApiResponse } from "./service.js";

export type Json = Record<string, any>;

const METHODS = ["get", "put", "post", "delete", "patch"];
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** The checked-in document (schema/openapi.json as `npm run generate` prints it). */
export const openApiDocument = (): Json => JSON.parse(printedContracts().openapi) as Json;

/**
 * The schema as ajv (JSON Schema draft 7) reads it: `#/components/schemas/X` → `X`, the id each
 * component is added under, and OpenAPI 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum`
 * (beside `minimum`/`maximum`) in draft 7's numeric form. Nothing else is changed.
 */
export function localRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(localRefs);
  if (!schema || typeof schema !== "object") return schema;
  const node: Json = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, key === "$ref" && typeof value === "string" ? value.replace("#/components/schemas/", "") : localRefs(value)]),
  );
  for (const [exclusive, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
    if (typeof node[exclusive] !== "boolean") continue;
    if (node[exclusive] && typeof node[bound] === "number") node[exclusive] = node[bound];
    else delete node[exclusive];
    if (typeof node[exclusive] === "number") delete node[bound];
  }
  return node;
}

/** ajv in strict mode with every component schema added under its name. */
export function strictAjv(doc: Json): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats(ajv);
  for (const format of ["int32", "int64", "float", "double", "binary", "byte"]) ajv.addFormat(format, true);
  for (const [name, schema] of Object.entries<Json>(doc.components.schemas)) ajv.addSchema(localRefs(schema) as Json, name);
  return ajv;
}

export function operations(doc: Json): [string, string, Json][] {
  return Object.entries<Json>(doc.paths).flatMap(([path, item]) => METHODS.filter((method) => item[method]).map((method) => [path, method, item[method]] as [string, string, Json]));
}

/** What one answer was checked as: its documented path, method and status. */
export interface CheckedAnswer {
  path: string | undefined;
  method: string;
  status: number;
}

/**
 * Checks real answers against the document. An answer to a documented operation must have a
 * documented status, document every header of components.headers it carries (with a value its
 * schema takes), a documented media type, and a body the schema validates (each ndjson line
 * against the list's item schema; a record asked for without `fields`, against the whole record). An unknown path (404) or verb (405) is checked against the
 * Error schema, and a 405's Allow against the verbs the document lists for the path.
 */
export function answerChecker(doc: Json) {
  const ajv = strictAjv(doc);
  const validators = new Map<string, ValidateFunction>();
  const templates = Object.keys(doc.paths)
    .map((path) => ({ path, params: (path.match(/\{/g) ?? []).length, pattern: new RegExp(`^${path.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`) }))
    // A literal segment wins over a parameter: /events/types before /events/{event_id}.
    .sort((a, b) => a.params - b.params);
  const headerNames = Object.keys(doc.components.headers ?? {});

  function validate(schema: Json, value: unknown): string | undefined {
    const key = JSON.stringify(schema);
    let validator = validators.get(key);
    if (!validator) validators.set(key, (validator = ajv.compile(localRefs(schema) as Json)));
    return validator(value) ? undefined : JSON.stringify(validator.errors?.slice(0, 4));
  }

  function component(schema: Json | undefined): Json | undefined {
    const ref = (schema?.allOf?.find((part: Json) => part.$ref) ?? schema)?.$ref as string | undefined;
    return ref ? doc.components.schemas[ref.replace("#/components/schemas/", "")] : undefined;
  }

  function headerValue(schema: Json, value: string): boolean {
    if (schema.type === "integer" && !/^-?\d+$/.test(value)) return false;
    return !schema.enum || schema.enum.includes(value);
  }

  return function check(method: string, url: string, response: ApiResponse): { problems: string[]; answer: CheckedAnswer } {
    const pathname = new URL(url, "http://service").pathname.replace(/^\/api\/v1/, "").replace(/\/+$/, "") || "/";
    const path = templates.find((template) => template.pattern.test(pathname))?.path;
    const verb = method.toLowerCase() === "head" ? "get" : method.toLowerCase();
    const answer = { path, method: verb, status: response.status };
    const problems: string[] = [];
    const label = `${method} ${url} → ${response.status}`;
    const operation = path ? doc.paths[path][verb] : undefined;
    if (!operation) {
      const expected = path ? 405 : 404;
      if (response.status !== expected) problems.push(`${label}: ${path ? "an undocumented verb" : "an undocumented path"} answered other than ${expected}`);
      const invalid = validate({ $ref: "#/components/schemas/Error" }, response.body);
      if (invalid) problems.push(`${label}: ${invalid}`);
      if (path) {
        const documented = METHODS.filter((candidate) => doc.paths[path][candidate]).map((candidate) => candidate.toUpperCase());
        const allowed = (response.headers.get("allow") ?? "").split(",").map((item) => item.trim()).filter((item) => item !== "HEAD" && item !== "OPTIONS");
        if ([...allowed].sort().join() !== [...documented].sort().join()) problems.push(`${label}: Allow ${response.headers.get("allow")} but the document lists ${documented.join(", ")}`);
      }
      return { problems, answer };
    }
    const declared = operation.responses[String(response.status)] as Json | undefined;
    if (!declared) return { problems: [`${label}: status not documented (${Object.keys(operation.responses).join(", ")})`], answer };
    const declaredHeaders = new Map(Object.entries<Json>(declared.headers ?? {}).map(([name, header]) => [name.toLowerCase(), header]));
    for (const name of headerNames) {
      const value = response.headers.get(name);
      if (value === null) continue;
      const header = declaredHeaders.get(name.toLowerCase());
      if (!header) problems.push(`${label}: header ${name} not documented`);
      else if (!headerValue(doc.components.headers[name].schema, value)) problems.push(`${label}: header ${name}: ${value} does not fit its schema`);
    }
    if (response.text === "") return { problems, answer };
    const media = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
    const content = declared.content ?? {};
    if (!content[media] && !content["*/*"]) return { problems: [...problems, `${label}: media type ${media} not documented (${Object.keys(content).join(", ")})`], answer };
    if (media === "application/json") {
      const schema = content[media].schema as Json;
      const invalid = validate(schema, response.body);
      if (invalid) problems.push(`${label}: ${invalid}`);
      // A record is whole or a `fields` selection (anyOf [Type, TypePartial]): without `fields`, the whole one.
      const views = schema.allOf?.[0]?.anyOf as Json[] | undefined;
      if (!invalid && views?.length === 2 && !new URL(url, "http://service").searchParams.has("fields")) {
        const whole = validate({ ...schema, allOf: [views[0], ...schema.allOf.slice(1)] }, response.body);
        if (whole) problems.push(`${label}: not the whole record: ${whole}`);
      }
    }
    if (media === "application/x-ndjson") {
      const item = component(content["application/json"]?.schema)?.properties?.data?.items as Json | undefined;
      if (!item) problems.push(`${label}: no list item schema for its lines`);
      for (const line of item ? response.text.split("\n").filter(Boolean) : []) {
        const invalid = validate(item!, JSON.parse(line));
        if (invalid) problems.push(`${label}: line ${line.slice(0, 60)}: ${invalid}`);
      }
    }
    return { problems, answer };
  };
}
