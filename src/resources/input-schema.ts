// Strict input schemas for create and update, built from column types plus the resource's own
// rules. Unknown fields are rejected (422 with `allowed` and `did_you_mean`); fields the service
// sets (identity, ownership, timestamps) are dropped before validation, as 2.1.2 asks.
import { z } from "zod";
import type { ModelField } from "../graphql/datamodel.js";
import type { ResourceDefinition } from "../registry/resource.js";
import { ignoredInputFields, writableColumns, writableVirtualFields } from "./fields.js";
import { parseOrThrow } from "../validation/issues.js";
import { isStorableInstant } from "../validation/storable.js";

/** Longest plain text column accepted; JSON columns are bounded by the body size limit. */
const MAX_TEXT_LENGTH = 100_000;

function baseSchema(field: ModelField): z.ZodType {
  switch (field.type) {
    case "String":
      return z.string().max(MAX_TEXT_LENGTH);
    case "Boolean":
      return z.boolean();
    case "Int":
      return z.number().int().min(-2147483648).max(2147483647);
    case "Float":
      return z.number();
    case "DateTime":
      // Four-digit years still allow 0000 (and offsets past 0001-01-01), which PostgreSQL refuses.
      return z.iso
        .datetime({ offset: true })
        .transform((value) => new Date(value))
        .refine(isStorableInstant, { message: "Must lie in the years 1 to 9999 (UTC).", params: { type: "date.range" } });
    case "Json":
      return z.json();
    default:
      throw new Error(`No input rule for column type ${field.type} (${field.name})`);
  }
}

function columnSchema(resource: ResourceDefinition, field: ModelField, mode: "create" | "update"): z.ZodType {
  let schema = resource.fieldRules?.[field.name] ?? baseSchema(field);
  if (field.isList) schema = z.array(schema).max(1000);
  if (!field.isRequired) schema = schema.nullable();
  const requiredOnCreate = mode === "create" && field.isRequired && !field.hasDefaultValue;
  return requiredOnCreate ? schema : schema.optional();
}

const schemaCache = new WeakMap<ResourceDefinition, Record<"create" | "update", z.ZodObject>>();

export function inputSchema(resource: ResourceDefinition, mode: "create" | "update"): z.ZodObject {
  let cached = schemaCache.get(resource);
  if (!cached) {
    const build = (which: "create" | "update") => {
      const shape: Record<string, z.ZodType> = {};
      for (const field of writableColumns(resource)) shape[field.name] = columnSchema(resource, field, which);
      for (const name of writableVirtualFields(resource)) {
        shape[name] = (resource.virtualFields![name]!.input as z.ZodType).optional();
      }
      return z.strictObject(shape);
    };
    cached = { create: build("create"), update: build("update") };
    schemaCache.set(resource, cached);
  }
  return cached[mode];
}

export type RecordInput = Record<string, unknown>;

/** Validates a create or update payload; returns only the accepted fields, typed. */
export function parseRecordInput(resource: ResourceDefinition, mode: "create" | "update", input: unknown): RecordInput {
  const ignored = ignoredInputFields(resource);
  const kept =
    input !== null && typeof input === "object" && !Array.isArray(input)
      ? Object.fromEntries(Object.entries(input).filter(([key]) => !ignored.has(key)))
      : input;
  // `allowed` names every field the record takes, the ones the service sets and ignores included
  // (contract 2.1; a video's are listed in 2.3), never the internal ones.
  return parseOrThrow(inputSchema(resource, mode), kept, { also: [resource.idField, ...resource.serviceSet] });
}
