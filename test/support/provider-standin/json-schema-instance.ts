// Builds a JSON value that validates against a JSON Schema, the way a model answering a
// `response_format: json_schema` request must. Covers what zod's JSON Schema output uses: objects
// (properties, required), arrays (items, tuples, minItems/maxItems), strings (enum, const,
// minLength/maxLength, format), numbers and integers (minimum/maximum, exclusive bounds,
// multipleOf), booleans, null, anyOf/oneOf/allOf, nullable type lists and local $refs. Strings are
// made of the prompt's words, so an answer is recognisably about what was asked; an enum value the
// prompt names is preferred over the first one.
import { randomUUID } from "node:crypto";

export type JsonSchema = { [key: string]: unknown };
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Context {
  root: JsonSchema;
  words: string[];
  promptLower: string;
  depth: number;
  /** Picks a different window of prompt words for each string. */
  counter: { value: number };
}

const MAX_DEPTH = 8;

function asSchema(value: unknown): JsonSchema {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as JsonSchema) : {};
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#")) return schema;
  let target: unknown = root;
  for (const part of ref.slice(1).split("/").filter(Boolean)) {
    target = asSchema(target)[decodeURIComponent(part.replace(/~1/g, "/").replace(/~0/g, "~"))];
  }
  const { $ref: _ref, ...rest } = schema;
  return { ...asSchema(target), ...rest };
}

function text(context: Context, label: string): string {
  const { words } = context;
  if (words.length === 0) return `${label} from the stand-in`;
  const start = (context.counter.value++ * 3) % words.length;
  const picked = Array.from({ length: Math.min(6, words.length) }, (_, index) => words[(start + index) % words.length]!);
  const sentence = picked.join(" ");
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

function formatted(format: string, context: Context): string | undefined {
  switch (format) {
    case "date-time":
      return "2026-01-15T09:30:00.000Z";
    case "date":
      return "2026-01-15";
    case "time":
      return "09:30:00";
    case "email":
      return "standin@example.com";
    case "uri":
    case "url":
      return `https://example.com/${(context.words[0] ?? "standin").toLowerCase()}`;
    case "uuid":
      return randomUUID();
    case "hostname":
      return "example.com";
    case "ipv4":
      return "192.0.2.10";
    case "ipv6":
      return "2001:db8::10";
    default:
      return undefined;
  }
}

function stringFor(schema: JsonSchema, context: Context, label: string): string {
  const format = typeof schema.format === "string" ? formatted(schema.format, context) : undefined;
  let value = format ?? text(context, label);
  const min = num(schema.minLength) ?? 0;
  const max = num(schema.maxLength);
  while (value.length < min) value = `${value} ${value}`;
  if (max !== undefined && value.length > max) value = value.slice(0, max);
  return value;
}

function numberFor(schema: JsonSchema, integer: boolean): number {
  const exclusiveMin = num(schema.exclusiveMinimum);
  const exclusiveMax = num(schema.exclusiveMaximum);
  const step = num(schema.multipleOf) ?? (integer ? 1 : undefined);
  let low = num(schema.minimum) ?? (exclusiveMin !== undefined ? exclusiveMin + (step ?? 0.001) : undefined);
  let high = num(schema.maximum) ?? (exclusiveMax !== undefined ? exclusiveMax - (step ?? 0.001) : undefined);
  if (low === undefined && high === undefined) return integer ? 3 : 0.5;
  low ??= high! - 10;
  high ??= low + 10;
  let value = (low + high) / 2;
  if (step) {
    value = Math.ceil(low / step) * step;
    if (value > high) value = Math.floor(high / step) * step;
  }
  return integer ? Math.round(value) : value;
}

function pickEnum(values: unknown[], context: Context): Json {
  const named = values.find((value) => typeof value === "string" && value.length > 2 && context.promptLower.includes(value.toLowerCase()));
  return (named ?? values[0] ?? null) as Json;
}

function typeOf(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return (type.find((item) => item !== "null") as string | undefined) ?? "null";
  if (typeof type === "string") return type;
  if (schema.properties) return "object";
  if (schema.items || schema.prefixItems) return "array";
  return undefined;
}

function generate(input: JsonSchema, context: Context, label: string): Json {
  const schema = resolveRef(input, context.root);
  if ("const" in schema) return schema.const as Json;
  if (Array.isArray(schema.enum)) return pickEnum(schema.enum, context);
  const branches = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined) as unknown[] | undefined;
  if (branches) {
    const concrete = branches.map(asSchema).find((branch) => resolveRef(branch, context.root).type !== "null") ?? asSchema(branches[0]);
    return generate(concrete, context, label);
  }
  if (Array.isArray(schema.allOf)) {
    const merged = schema.allOf.map(asSchema).map((part) => resolveRef(part, context.root)).reduce<JsonSchema>((all, part) => ({
      ...all,
      ...part,
      properties: { ...asSchema(all.properties), ...asSchema(part.properties) },
      required: [...((all.required as string[] | undefined) ?? []), ...((part.required as string[] | undefined) ?? [])],
    }), {});
    const { allOf: _allOf, ...rest } = schema;
    return generate({ ...merged, ...rest, properties: { ...asSchema(merged.properties), ...asSchema(rest.properties) } }, context, label);
  }
  const deeper = { ...context, depth: context.depth + 1 };
  switch (typeOf(schema)) {
    case "object": {
      const properties = asSchema(schema.properties);
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      const result: { [key: string]: Json } = {};
      for (const [key, property] of Object.entries(properties)) {
        // Past the depth limit only what is required, so recursive schemas end.
        if (context.depth >= MAX_DEPTH && !required.has(key)) continue;
        result[key] = generate(asSchema(property), deeper, key);
      }
      return result;
    }
    case "array": {
      // A tuple: 2020-12 `prefixItems`, or draft-7's `items` as an array.
      const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
      if (tuple) return tuple.map((item, index) => generate(asSchema(item), deeper, `${label} ${index + 1}`));
      const min = num(schema.minItems) ?? 0;
      const max = num(schema.maxItems) ?? Number.POSITIVE_INFINITY;
      const count = Math.min(max, Math.max(min, context.depth >= MAX_DEPTH ? 0 : 2));
      return Array.from({ length: count }, (_, index) => generate(asSchema(schema.items), deeper, `${label} ${index + 1}`));
    }
    case "string":
      return stringFor(schema, context, label);
    case "integer":
      return numberFor(schema, true);
    case "number":
      return numberFor(schema, false);
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return stringFor(schema, context, label);
  }
}

/** A value valid under `schema`, its strings drawn from `prompt`. */
export function instanceFor(schema: JsonSchema, prompt: string): Json {
  const words = prompt.match(/[\p{L}\p{N}']+/gu) ?? [];
  return generate(schema, { root: schema, words, promptLower: prompt.toLowerCase(), depth: 0, counter: { value: 0 } }, "value");
}
