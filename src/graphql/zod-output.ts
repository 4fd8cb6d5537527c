// GraphQL object types from zod output schemas, so an action's declared output is also its
// GraphQL result type (selectable fields) and, through Sofa, its OpenAPI response schema.
//
// Mapping: string → String (an ISO datetime → DateTime), integer → Int, number → Float,
// boolean → Boolean, enum and literal → String (a status or format field's enum of GraphQL names →
// a GraphQL enum, shared with inputs: ./zod-input.ts), array → list, object → an object type, record and
// JSON → JSON. An `object` field holding string literals (the kind of the answer: `list`,
// `render`, `action_quote`) is an enum of its own type (`ActionQuoteObject`), so a client tells a
// quote from a result by the field's type as well as its value. Optional, nullable and defaulted values are nullable fields. An object type is named
// by its `.meta({ id })` when it has one (shared by every output using it), otherwise after the
// field that holds it (`RendersListResult` → `RendersListResultData`).
import { z } from "zod";
import { builder } from "./builder.js";
import { descriptionOf, enumTypeOf, isEnumName, pascal } from "./zod-input.js";

const loose = builder as any;

type TypeRef = unknown;

interface FieldShape {
  /** A type ref, or `[ref]` for a list of it. */
  type: TypeRef;
  nullable: boolean | { list: boolean; items: boolean };
  description?: string;
}

const byName = new Map<string, { schema: z.ZodType; ref: TypeRef }>();

/** The enum of an `object` field's literal values, or undefined when they are not all GraphQL names. */
function objectKindEnum(schema: z.ZodType, typeName: string): TypeRef {
  const { inner, nullable } = unwrapNullable(schema);
  if (nullable || !(inner instanceof z.ZodLiteral)) return undefined;
  const values = [...inner.values];
  if (!values.every(isEnumName)) return undefined;
  const name = `${typeName}Object`;
  const existing = byName.get(name);
  if (existing) return existing.ref;
  const ref = loose.enumType(name, {
    description: `The kind of a ${typeName}: ${values.join(", ")}.`,
    values: Object.fromEntries(values.map((value) => [value, { value }])),
  });
  byName.set(name, { schema: inner, ref });
  return ref;
}
const bySchema = new WeakMap<z.ZodType, TypeRef>();

/** A status or format field (`status`, `video_format`, …): its closed set is told apart by type. */
export function isClosedSetField(name: string): boolean {
  return /(^|_)(status|format)$/.test(name);
}

/** The enum of a status or format field holding a zod enum of GraphQL names, else undefined. */
export function closedSetEnum(key: string, schema: z.ZodType, typeName: string): { type: TypeRef; nullable: boolean } | undefined {
  if (!isClosedSetField(key)) return undefined;
  const { inner, nullable } = unwrapNullable(schema);
  if (!(inner instanceof z.ZodEnum) || !inner.options.every(isEnumName)) return undefined;
  return { type: enumTypeOf(inner, inner.options, `${typeName}${pascal(key)}`), nullable };
}

/** Strips optional / nullable / default wrappers; says whether the value may be absent or null. */
function unwrapNullable(schema: z.ZodType): { inner: z.ZodType; nullable: boolean } {
  let inner = schema;
  let nullable = false;
  for (;;) {
    if (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) {
      nullable = true;
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodDefault || inner instanceof z.ZodPrefault) {
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodReadonly) {
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodPipe) {
      // A transform's output has no declared shape: its input stands for it (a normalised colour is a string).
      inner = (inner.out instanceof z.ZodTransform ? inner.in : inner.out) as z.ZodType;
    } else {
      return { inner, nullable };
    }
  }
}

function scalarOf(schema: z.ZodType): string | undefined {
  if (schema instanceof z.ZodISODateTime) return "DateTime";
  if (schema instanceof z.ZodString || schema instanceof z.ZodEnum || schema instanceof z.ZodStringFormat) return "String";
  if (schema instanceof z.ZodLiteral) {
    const values = [...schema.values];
    if (values.every((value) => typeof value === "string")) return "String";
    if (values.every((value) => typeof value === "boolean")) return "Boolean";
    if (values.every((value) => Number.isInteger(value))) return "Int";
    return "JSON";
  }
  if (schema instanceof z.ZodNumber) return schema.isInt ? "Int" : "Float";
  if (schema instanceof z.ZodBoolean) return "Boolean";
  if (schema instanceof z.ZodRecord || schema instanceof z.ZodUnknown || schema instanceof z.ZodAny) return "JSON";
  // z.json() is a lazy union of JSON values.
  if (schema instanceof z.ZodLazy || schema instanceof z.ZodUnion) return "JSON";
  return undefined;
}

function fieldShape(schema: z.ZodType, nameHint: string): FieldShape {
  const { inner, nullable } = unwrapNullable(schema);
  const description = descriptionOf(schema) ?? descriptionOf(inner);
  if (inner instanceof z.ZodArray) {
    const item = unwrapNullable(inner.element as z.ZodType);
    return { type: [typeOf(item.inner, nameHint)], nullable: { list: nullable, items: item.nullable }, description };
  }
  // Any JSON value may be null itself.
  const anyJson = inner instanceof z.ZodLazy || inner instanceof z.ZodUnknown || inner instanceof z.ZodAny;
  return { type: typeOf(inner, nameHint), nullable: nullable || anyJson, description };
}

function typeOf(schema: z.ZodType, nameHint: string): TypeRef {
  const scalar = scalarOf(schema);
  if (scalar) return scalar;
  if (schema instanceof z.ZodObject) return objectTypeOf(schema, nameHint);
  throw new Error(`No GraphQL type for the zod ${schema.constructor.name} at ${nameHint}`);
}

/** The GraphQL object type of a zod object (built once per schema, named once per name). */
export function objectTypeOf(schema: z.ZodObject, nameHint: string, description?: string): TypeRef {
  const known = bySchema.get(schema);
  if (known) return known;
  const name = z.globalRegistry.get(schema)?.id ?? nameHint;
  const existing = byName.get(name);
  if (existing) {
    if (existing.schema !== schema) throw new Error(`Two different output shapes are both named ${name}`);
    return existing.ref;
  }
  const ref = loose.objectRef(name);
  byName.set(name, { schema, ref });
  bySchema.set(schema, ref);
  const shape = schema.shape as Record<string, z.ZodType>;
  ref.implement({
    description: description ?? descriptionOf(schema),
    fields: (t: any) =>
      Object.fromEntries(
        Object.entries(shape).map(([key, field]) => {
          const kind = key === "object" ? objectKindEnum(field, name) : undefined;
          if (kind) return [key, t.field({ type: kind, nullable: false, description: descriptionOf(field), resolve: (parent: Record<string, unknown>) => parent[key] })];
          const closed = closedSetEnum(key, field, name);
          if (closed) return [key, t.field({ type: closed.type, nullable: closed.nullable, description: descriptionOf(field), resolve: (parent: Record<string, unknown>) => parent[key] ?? null })];
          const { type, nullable, description: fieldDescription } = fieldShape(field, `${name}${pascal(key)}`);
          return [key, t.field({ type, nullable, description: fieldDescription, resolve: (parent: Record<string, unknown>) => parent[key] ?? null })];
        }),
      ),
  });
  return ref;
}

/** A GraphQL union of object types, told apart by their `object` field. */
export function unionTypeOf(name: string, members: { ref: TypeRef; object: string | readonly string[] }[], description?: string): TypeRef {
  const existing = byName.get(name);
  if (existing) return existing.ref;
  const ref = loose.unionType(name, {
    description,
    types: members.map((member) => member.ref),
    resolveType: (value: { object?: string }) => {
      const member = members.find((candidate) => (typeof candidate.object === "string" ? candidate.object === value.object : candidate.object.includes(value.object ?? "")));
      return member?.ref ?? members[0]!.ref;
    },
  });
  byName.set(name, { schema: z.never(), ref });
  return ref;
}
