// Descriptions of a resource's input payloads, for the GraphQL SDL and the OpenAPI document,
// generated from the same schemas that validate them.
import { z } from "zod";
import type { ResourceDefinition } from "../registry/resource.js";
import { ignoredInputFields } from "./fields.js";
import { inputSchema } from "./input-schema.js";

/**
 * JSON-valued fields are described as "any value": zod renders its recursive JSON type as local
 * `definitions`, which an OpenAPI document cannot resolve.
 */
function withoutLocalDefinitions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutLocalDefinitions);
  if (node === null || typeof node !== "object") return node;
  const object = node as Record<string, unknown>;
  if (typeof object.$ref === "string" && object.$ref.startsWith("#/definitions/")) {
    return object.nullable ? { nullable: true } : {};
  }
  return Object.fromEntries(
    Object.entries(object)
      .filter(([key]) => key !== "definitions" && key !== "$schema")
      .map(([key, value]) => [key, withoutLocalDefinitions(value)]),
  );
}

/** A zod input schema as an OpenAPI 3.0 schema object. */
export function openApiSchemaOf(schema: z.ZodType): Record<string, unknown> {
  return withoutLocalDefinitions(z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "openapi-3.0" })) as Record<string, unknown>;
}

export function inputJsonSchema(resource: ResourceDefinition, mode: "create" | "update"): Record<string, unknown> {
  return openApiSchemaOf(inputSchema(resource, mode));
}

export function inputSchemaDescription(resource: ResourceDefinition, mode: "create" | "update"): string {
  const fields = Object.keys(inputSchema(resource, mode).shape);
  const ignored = [...ignoredInputFields(resource)];
  return [
    `A JSON object of ${resource.kind} fields to ${mode === "create" ? "create the record with" : "change"}.`,
    `Accepted: ${fields.join(", ")}.`,
    `Set by the service and ignored when sent: ${ignored.join(", ")}.`,
    "Any other field is rejected with validation_failed.",
  ].join(" ");
}
