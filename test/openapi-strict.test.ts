// The OpenAPI document strict tools accept (rest/openapi-strict.ts): every schema compiles under
// ajv in strict mode, `nullable` always has a `type`, a `$ref` has no siblings, every operation has
// a summary and defined tags, answers document their headers and the statuses the service really
// answers, lists their export media types and parameter bounds; the checked-in copy names its
// server `{base_url}`, a served copy the address it was asked at. Lists and `fields` answers are
// typed partial, filters take a plain value, webhook bodies are typed. Real answers: openapi-corpus.test.ts.
import { describe, expect, it } from "vitest";
import { useService } from "./support/service.js";
import { localRefs, openApiDocument as document, operations, strictAjv, type Json } from "./support/openapi-check.js";

const service = useService();

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

  it("lists and fields= answers promise only the id and object; a whole record stays whole", () => {
    const doc = document();
    const { schemas } = doc.components;
    expect(schemas.Script.required).toEqual(expect.arrayContaining(["paragraphs", "chapters", "word_count"]));
    expect(schemas.ScriptPartial.required.sort()).toEqual(["object", "script_id"]);
    expect(Object.keys(schemas.ScriptPartial.properties)).toEqual(Object.keys(schemas.Script.properties));
    expect(schemas.ScriptList.properties.data.items).toEqual({ $ref: "#/components/schemas/ScriptPartial" });
    const single = doc.paths["/videos/{video_id}"].get.responses["200"].content["application/json"].schema;
    expect(single.allOf[0]).toEqual({ anyOf: [{ $ref: "#/components/schemas/Video" }, { $ref: "#/components/schemas/VideoPartial" }] });
  });

  it("a filter takes the plain value (eq) or an operator object", () => {
    const parameters = document().paths["/videos"].get.parameters as Json[];
    const format = parameters.find((parameter) => parameter.name === "video_format")!;
    expect(format).toMatchObject({ in: "query", style: "deepObject", explode: true });
    expect(format.schema.oneOf[0]).toEqual({ type: "string" });
    expect(format.schema.oneOf[1]).toMatchObject({ type: "object", properties: { eq: { type: "string" }, in: { type: "string" }, exists: { type: "boolean" } } });
    const ajv = strictAjv(document());
    const validate = ajv.compile(localRefs(format.schema) as Json);
    for (const value of ["landscape", { in: "landscape,portrait" }, { exists: true }]) expect(validate(value), JSON.stringify(value)).toBe(true);
    for (const value of [3, { near: "x" }]) expect(validate(value), JSON.stringify(value)).toBe(false);
  });

  it("webhook bodies are typed from the handler's schemas; the test route takes no body", () => {
    const paths = document().paths;
    const body = (path: string, method: string) => paths[path][method].requestBody;
    const create = body("/webhooks", "post");
    expect(create.required).toBe(true);
    const schema = create.content["application/json"].schema;
    expect(schema).toMatchObject({ type: "object", required: ["url", "events"], additionalProperties: false });
    expect(Object.keys(schema.properties).sort()).toEqual(["description", "enabled", "events", "url"]);
    expect(schema.properties.events.items.enum).toEqual(expect.arrayContaining(["*", "video.*", "video.created", "render.completed"]));
    expect(body("/webhooks/{endpoint_id}", "patch").required).toBe(false);
    const update = body("/webhooks/{endpoint_id}", "patch").content["application/json"].schema;
    expect(update.required ?? []).toEqual([]);
    expect(Object.keys(update.properties).sort()).toEqual(["description", "enabled", "events", "since", "url"]);
    expect(body("/webhooks/{endpoint_id}/rotate_secret", "post")).toMatchObject({ required: false, content: { "application/json": { schema: { properties: { grace_period_seconds: { type: "integer", maximum: 604800 } } } } } });
    expect(body("/webhooks/{endpoint_id}/recover", "post").content["application/json"].schema.required).toEqual(["since"]);
    expect(body("/webhooks/{endpoint_id}/test", "post")).toBeUndefined();
    // An action's body is required when its input has required fields (no body reads as {}).
    expect(body("/actions/renders.create", "post").required).toBe(true);
    expect(body("/webhooks/{endpoint_id}/deliveries/{delivery_id}/resend", "post")).toBeUndefined();
  });
});
