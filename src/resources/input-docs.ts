// Descriptions of a resource's input payloads, for the GraphQL SDL and the OpenAPI document,
// generated from the same schemas that validate them.
import { z } from "zod";
import type { ResourceDefinition } from "../registry/resource.js";
import { ignoredInputFields } from "./fields.js";
import { inputSchema } from "./input-schema.js";

export function inputJsonSchema(resource: ResourceDefinition, mode: "create" | "update"): Record<string, unknown> {
  const schema = z.toJSONSchema(inputSchema(resource, mode), { io: "input", unrepresentable: "any", target: "openapi-3.0" }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
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
