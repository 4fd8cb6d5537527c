// The OpenAPI document strict tools accept (rest/openapi-strict.ts): every schema compiles under
// ajv in strict mode, `nullable` always has a `type`, a `$ref` has no siblings, every operation has
// a summary and defined tags, answers document their headers and the statuses the service really
// answers, lists their export media types and parameter bounds; the checked-in copy names its
// server `{base_url}`, a served copy the address it was asked at. Real answers validate against it.
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { printedContracts } from "../src/platform/contracts.js";
import { createFixture, useService, type ApiResponse } from "./support/service.js";

type Json = Record<string, any>;
const METHODS = ["get", "put", "post", "delete", "patch"];
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const service = useService();
const document = (): Json => JSON.parse(printedContracts().openapi) as Json;

/**
 * The schema as ajv (JSON Schema draft 7) reads it: `#/components/schemas/X` → `X`, the id each
 * component is added under, and OpenAPI 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum`
 * (beside `minimum`/`maximum`) in draft 7's numeric form. Nothing else is changed.
 */
function localRefs(schema: unknown): unknown {
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

function strictAjv(doc: Json): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats(ajv);
  for (const format of ["int32", "int64", "float", "double", "binary", "byte"]) ajv.addFormat(format, true);
  for (const [name, schema] of Object.entries<Json>(doc.components.schemas)) ajv.addSchema(localRefs(schema) as Json, name);
  return ajv;
}

function operations(doc: Json): [string, string, Json][] {
  return Object.entries<Json>(doc.paths).flatMap(([path, item]) => METHODS.filter((method) => item[method]).map((method) => [path, method, item[method]] as [string, string, Json]));
}

function walk(schema: unknown, visit: (node: Json) => void): void {
  if (Array.isArray(schema)) return schema.forEach((item) => walk(item, visit));
  if (!schema || typeof schema !== "object") return;
  visit(schema);
  for (const value of Object.values(schema)) walk(value, visit);
}

describe("the checked-in OpenAPI document, strictly", () => {
  it("every component and inline schema compiles under ajv strict mode", () => {
    const doc = document();
    const ajv = strictAjv(doc);
    for (const name of Object.keys(doc.components.schemas)) expect(() => ajv.getSchema(name), name).not.toThrow();
    let inline = 0;
    const seen = new Set<string>();
    for (const [path, method, operation] of operations(doc)) {
      const schemas = [
        ...Object.values<Json>(operation.responses).flatMap((response) => Object.values<Json>(response.content ?? {}).map((media) => media.schema)),
        ...Object.values<Json>(operation.requestBody?.content ?? {}).map((media) => media.schema),
        ...(operation.parameters ?? []).map((parameter: Json) => parameter.schema),
      ].filter(Boolean);
      for (const schema of schemas) {
        // A reference alone is its component, compiled above; the same inline schema once.
        const text = JSON.stringify(schema);
        if (seen.has(text) || (schema.$ref && Object.keys(schema).length === 1)) continue;
        seen.add(text);
        expect(() => ajv.compile(localRefs(schema) as Json), `${method.toUpperCase()} ${path}`).not.toThrow();
        inline++;
      }
    }
    expect(inline).toBeGreaterThan(100);
  }, 600_000);

  it("has no nullable without a type and no $ref with siblings", () => {
    const problems: string[] = [];
    walk(document(), (node) => {
      if (node.nullable === true && node.type === undefined) problems.push(`nullable without type: ${JSON.stringify(node).slice(0, 80)}`);
      if (typeof node.$ref === "string" && Object.keys(node).length > 1) problems.push(`$ref with siblings: ${JSON.stringify(node).slice(0, 80)}`);
    });
    expect(problems).toEqual([]);
  });

  it("every operation has a summary and defined tags; its answers document their headers", () => {
    const doc = document();
    const tags = new Set((doc.tags as Json[]).map((tag) => tag.name as string));
    for (const [path, method, operation] of operations(doc)) {
      const label = `${method.toUpperCase()} ${path}`;
      expect(operation.summary, label).toMatch(/\S/);
      for (const tag of operation.tags ?? []) expect(tags.has(tag), `${label} tag ${tag}`).toBe(true);
      for (const [status, response] of Object.entries<Json>(operation.responses)) {
        expect(Object.keys(response.headers ?? {}), `${label} ${status}`).toEqual(expect.arrayContaining(["X-Request-Id", "X-RateLimit-Limit", "X-Test-Mode"]));
        if (status === "429") expect(Object.keys(response.headers), `${label} 429`).toContain("Retry-After");
      }
      if (path !== "/health") expect(Object.keys(operation.responses), label).toEqual(expect.arrayContaining(["429", "500"]));
      if (method !== "get") expect(Object.keys(operation.responses), label).toContain("409");
    }
    for (const name of ["X-Request-Id", "X-RateLimit-Remaining", "Retry-After", "X-Test-Mode", "Idempotent-Replayed"]) expect(doc.components.headers[name], name).toBeDefined();
  });

  it("a spending action documents 402; lists their export media types and bounded parameters; bulk its maxItems", () => {
    const doc = document();
    expect(Object.keys(doc.paths["/actions/renders.create"].post.responses)).toEqual(expect.arrayContaining(["402", "409", "502"]));
    expect(Object.keys(doc.paths["/actions/account.credits"].get.responses)).not.toContain("402");
    const list = doc.paths["/videos"].get;
    expect(Object.keys(list.responses["200"].content)).toEqual(expect.arrayContaining(["application/json", "application/x-ndjson", "text/csv"]));
    const parameter = (name: string) => (list.parameters as Json[]).find((candidate) => candidate.name === name)!.schema;
    expect(parameter("limit")).toMatchObject({ type: "integer", minimum: 1, maximum: 100 });
    expect(parameter("order")).toMatchObject({ enum: ["asc", "desc"] });
    expect(parameter("sort").enum).toEqual(expect.arrayContaining(["video_name", "video_created_at"]));
    expect(doc.paths["/videos/bulk"].post.requestBody.content["application/json"].schema.properties.create.maxItems).toBe(100);
  });

  it("names its server by a {base_url} variable; a served copy names the service's own address", async () => {
    expect(document().servers).toEqual([expect.objectContaining({ url: "{base_url}/api/v1", variables: { base_url: expect.objectContaining({ default: expect.any(String) }) } })]);
    const served = (await (await fetch(`${service.url}/docs/openapi.json`)).json()) as Json;
    expect(served.servers).toEqual([expect.objectContaining({ url: `${service.url}/api/v1` })]);
  });
});

describe("real answers validate against the document", () => {
  const doc = document();
  const ajv = strictAjv(doc);
  const validators = new Map<string, ValidateFunction>();

  function check(path: string, method: string, response: ApiResponse): void {
    const label = `${method.toUpperCase()} ${path} ${response.status}`;
    const declared = doc.paths[path]?.[method]?.responses?.[String(response.status)] as Json | undefined;
    expect(declared, `${label} is not documented`).toBeDefined();
    for (const header of ["x-request-id", "x-ratelimit-limit"]) {
      if (response.headers.get(header) !== null) expect(Object.keys(declared!.headers).map((name) => name.toLowerCase()), label).toContain(header);
    }
    const schema = declared!.content?.["application/json"]?.schema as Json | undefined;
    if (!schema) return;
    const key = `${label}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile(localRefs(schema) as Json);
      validators.set(key, validate);
    }
    expect(validate(response.body), `${label}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
  }

  it("record routes, actions and their errors", async () => {
    const { client } = await createFixture(service);
    const created = await client.post("/api/v1/videos", { video_name: "corpus" });
    check("/videos", "post", created);
    check("/videos/{video_id}", "get", await client.get(`/api/v1/videos/${created.body.video_id}`));
    check("/videos/{video_id}", "patch", await client.patch(`/api/v1/videos/${created.body.video_id}`, { video_name: "renamed" }));
    check("/videos", "post", await client.post("/api/v1/videos", { video_nam: "typo" }));
    check("/videos/{video_id}", "get", await client.get("/api/v1/videos/vid_missing"));
    check("/videos", "get", await client.get("/api/v1/videos?limit=0"));
    check("/actions/account.credits", "get", await client.get("/api/v1/actions/account.credits"));
    check("/actions/renders.create", "post", await client.post("/api/v1/actions/renders.create", { video_id: created.body.video_id }));
    check("/actions/renders.create", "post", await client.post("/api/v1/actions/renders.create", {}));
    check("/videos/{video_id}", "delete", await client.delete(`/api/v1/videos/${created.body.video_id}`));
  });
});
