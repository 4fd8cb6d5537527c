// GraphQL input object types from zod input schemas, so every action and record input is typed in
// the SDL (GraphiQL completes it, codegen types its variables) from the schema that validates it.
//
// Mapping (the zod schema stays the judge: a GraphQL type is never stricter than it, except that
// an object that silently drops unknown keys (z.object) refuses them, and that GraphQL takes a
// single value given for a list as a list of one; src/graphql/input-check.ts answers refusals):
// - string, string formats → String (an ISO date-time too: the DateTime scalar would hand the
//   resolver a Date, which the schema refuses); boolean → Boolean;
// - number → Float; integer → Int when its bounds fit in 32 bits, else Float (GraphQL's Int is 32
//   bits), the description saying it is an integer;
// - enum and string literals → an enum type when every value is a GraphQL name (named by the
//   enum's `.meta({ id })`, else after its field: `RendersCreateInput.format` → `RendersCreateFormat`),
//   otherwise String with the allowed values in the description; number and boolean literals → Int,
//   Float or Boolean;
// - array → list (items non-null unless the item may be null);
// - object → an input object type named by `.meta({ id })` + `Input`, else after its field
//   (`RendersCreateInput.composition` → `RendersCreateCompositionInput`); an object whose unknown
//   keys the schema keeps (loose) → JSON;
// - record, union, tuple, intersection, lazy (z.json()), unknown, any → the JSON scalar, the
//   description saying what it holds.
// A field is NonNull only when zod requires it: not optional, not nullable, no default, and not a
// schema that takes null itself (a JSON value).
// Defaults are stated in descriptions, never as GraphQL defaults: the schema applies them.
import { z } from "zod";
import { builder } from "./builder.js";

const loose = builder as any;

type TypeRef = unknown;

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const RESERVED_ENUM_VALUES = new Set(["true", "false", "null"]);

const byName = new Map<string, { schema: z.ZodType; ref: TypeRef }>();
const bySchema = new WeakMap<z.ZodType, TypeRef>();

/** `video_format` → `VideoFormat`, for type names made from field names. */
export function pascal(text: string): string {
  return text.replace(/(^|[_.\-\s]+)([a-z0-9])/gi, (_match, _separator, letter: string) => letter.toUpperCase());
}

/** `RendersCreateInput` → `RendersCreate`: nested types are named `<stem><Field>Input`. */
function stemOf(typeName: string): string {
  return typeName.endsWith("Input") ? typeName.slice(0, -"Input".length) : typeName;
}

/** A schema's description, from the registry (`.meta`) or `.describe`. */
export function descriptionOf(schema: z.ZodType): string | undefined {
  return z.globalRegistry.get(schema)?.description ?? schema.description;
}

interface Unwrapped {
  inner: z.ZodType;
  /** The value may be left out (or null): never NonNull. */
  optional: boolean;
  defaultValue?: unknown;
  description?: string;
}

/** Strips optional / nullable / default / pipe wrappers, keeping the input side of a pipe. */
function unwrapInput(schema: z.ZodType): Unwrapped {
  let inner = schema;
  let optional = false;
  let defaultValue: unknown;
  let description = descriptionOf(schema);
  for (;;) {
    if (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) {
      optional = true;
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodDefault || inner instanceof z.ZodPrefault) {
      optional = true;
      const value = (inner._zod.def as { defaultValue: unknown }).defaultValue;
      defaultValue ??= typeof value === "function" ? undefined : value;
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodReadonly || inner instanceof z.ZodCatch) {
      inner = (inner._zod.def as unknown as { innerType: z.ZodType }).innerType;
    } else if (inner instanceof z.ZodPipe) {
      inner = inner.in as z.ZodType;
    } else {
      description ??= descriptionOf(inner);
      return { inner, optional, defaultValue, description };
    }
    description ??= descriptionOf(inner);
  }
}

function sentence(...parts: (string | undefined)[]): string | undefined {
  const text = parts
    .filter((part): part is string => Boolean(part && part.trim()))
    .map((part) => (/[.!?)]$/.test(part.trim()) ? part.trim() : `${part.trim()}.`))
    .join(" ");
  return text || undefined;
}

/**
 * The GraphQL enum of a closed set of names (a zod enum or string literals), shared by inputs and
 * outputs: named by the schema's `.meta({ id })`, else by `nameHint`; built once per zod schema.
 */
export function enumTypeOf(schema: z.ZodType, values: string[], nameHint: string): TypeRef {
  const known = bySchema.get(schema);
  if (known) return known;
  const id = z.globalRegistry.get(schema)?.id;
  const name = id ?? nameHint;
  const existing = byName.get(name);
  if (existing) {
    // One set of values under one name, whichever zod instance declares it.
    const same = existing.schema instanceof z.ZodEnum && sameValues(existing.schema, values);
    if (!same) throw new Error(`Two different input enums are both named ${name}`);
    bySchema.set(schema, existing.ref);
    return existing.ref;
  }
  const ref = loose.enumType(name, {
    description: descriptionOf(schema) ?? `One of: ${values.join(", ")}.`,
    values: Object.fromEntries(values.map((value) => [value, { value }])),
  });
  byName.set(name, { schema: z.enum(values as [string, ...string[]]), ref });
  bySchema.set(schema, ref);
  return ref;
}

function sameValues(schema: z.ZodEnum, values: string[]): boolean {
  const mine = schema.options.map(String);
  return mine.length === values.length && mine.every((value, index) => value === values[index]);
}

/** Whether a value can be a GraphQL enum value (a name, not true, false or null). */
export function isEnumName(value: unknown): value is string {
  return typeof value === "string" && GRAPHQL_NAME.test(value) && !RESERVED_ENUM_VALUES.has(value);
}

const INT32 = { min: -2147483648, max: 2147483647 };

interface Leaf {
  type: TypeRef;
  /** What the GraphQL type leaves unsaid (allowed values, integer, JSON). */
  note?: string;
}

/** What a JSON-typed input holds, in words. */
function jsonNote(schema: z.ZodType): string {
  if (schema instanceof z.ZodRecord) return "JSON: an object of named values";
  if (schema instanceof z.ZodDiscriminatedUnion) {
    const discriminator = (schema._zod.def as { discriminator: string }).discriminator;
    const kinds = (schema.options as z.ZodType[]).flatMap((option) => [...((option instanceof z.ZodObject ? (option.shape as Record<string, z.ZodType>)[discriminator]?._zod.values : undefined) ?? [])]);
    return `JSON: an object whose \`${discriminator}\` is one of ${kinds.map(String).join(", ")}`;
  }
  if (schema instanceof z.ZodUnion) return "JSON: one of several shapes (see the REST schema of this field)";
  if (schema instanceof z.ZodObject) return "JSON: an object (further fields are kept)";
  if (schema instanceof z.ZodTuple) return "JSON: a list of fixed length";
  return "JSON: any JSON value";
}

function leafOf(schema: z.ZodType, nameHint: string): Leaf | undefined {
  if (schema instanceof z.ZodISODateTime) return { type: "String", note: "An ISO 8601 date-time" };
  if (schema instanceof z.ZodString || schema instanceof z.ZodStringFormat) return { type: "String" };
  if (schema instanceof z.ZodBoolean) return { type: "Boolean" };
  if (schema instanceof z.ZodNumber) {
    if (!schema.isInt) return { type: "Float" };
    const min = schema.minValue ?? -Infinity;
    const max = schema.maxValue ?? Infinity;
    return min >= INT32.min && max <= INT32.max ? { type: "Int" } : { type: "Float", note: "An integer" };
  }
  if (schema instanceof z.ZodEnum) {
    const values = schema.options;
    if (values.every(isEnumName)) return { type: enumTypeOf(schema, values, nameHint) };
    if (values.every((value) => typeof value === "string")) return { type: "String", note: `One of: ${values.join(", ")}` };
    return { type: "JSON", note: `One of: ${values.map(String).join(", ")}` };
  }
  if (schema instanceof z.ZodLiteral) {
    const values = [...schema.values];
    if (values.every(isEnumName)) return { type: enumTypeOf(schema, values, nameHint) };
    if (values.every((value) => typeof value === "string")) return { type: "String", note: `One of: ${values.join(", ")}` };
    if (values.every((value) => typeof value === "boolean")) return { type: "Boolean", note: `Only ${values.join(" or ")}` };
    if (values.every((value) => typeof value === "number")) {
      const ints = values.every((value) => Number.isInteger(value) && value >= INT32.min && value <= INT32.max);
      return { type: ints ? "Int" : "Float", note: `One of: ${values.join(", ")}` };
    }
    return { type: "JSON", note: `One of: ${values.map((value) => JSON.stringify(value)).join(", ")}` };
  }
  if (
    schema instanceof z.ZodRecord || schema instanceof z.ZodUnion || schema instanceof z.ZodLazy || schema instanceof z.ZodUnknown ||
    schema instanceof z.ZodAny || schema instanceof z.ZodTuple || schema instanceof z.ZodIntersection || schema instanceof z.ZodNull
  ) {
    return { type: "JSON", note: jsonNote(schema) };
  }
  // An object that keeps unknown keys, or whose keys are not all GraphQL names, stays JSON.
  if (schema instanceof z.ZodObject && !isTypedObject(schema)) return { type: "JSON", note: jsonNote(schema) };
  return undefined;
}

function isTypedObject(schema: z.ZodObject): boolean {
  const catchall = (schema._zod.def as { catchall?: z.ZodType }).catchall;
  const keys = Object.keys(schema.shape);
  return (catchall === undefined || catchall instanceof z.ZodNever) && keys.length > 0 && keys.every((key) => GRAPHQL_NAME.test(key) && !key.startsWith("__"));
}

/** The bounds a value is held to, in words, for a field the schema does not describe. */
function ruleNote(schema: z.ZodType): string | undefined {
  const between = (min: number | null | undefined, max: number | null | undefined, unit: string) => {
    const low = min !== null && min !== undefined && Number.isFinite(min) && Math.abs(min) < Number.MAX_SAFE_INTEGER ? min : undefined;
    const high = max !== null && max !== undefined && Number.isFinite(max) && Math.abs(max) < Number.MAX_SAFE_INTEGER ? max : undefined;
    if (low !== undefined && high !== undefined) return `From ${low} to ${high}${unit}`;
    if (low !== undefined) return `At least ${low}${unit}`;
    if (high !== undefined) return `At most ${high}${unit}`;
    return undefined;
  };
  if (schema instanceof z.ZodString) return between(schema.minLength, schema.maxLength, " characters");
  if (schema instanceof z.ZodStringFormat && !(schema instanceof z.ZodISODateTime)) return `A ${String((schema._zod.def as { format?: string }).format ?? "formatted")} string`;
  if (schema instanceof z.ZodNumber) return between(schema.minValue, schema.maxValue, "");
  return undefined;
}

interface InputFieldShape {
  type: TypeRef;
  required: boolean | { list: boolean; items: boolean };
  description?: string;
}

function valueType(schema: z.ZodType, nameHint: string): Leaf {
  const leaf = leafOf(schema, nameHint);
  if (leaf) return leaf;
  if (schema instanceof z.ZodObject) return { type: inputObjectTypeOf(schema, `${nameHint}Input`) };
  // Whatever else zod may hold (a date, a custom check): any JSON value, judged by the schema.
  return { type: "JSON", note: jsonNote(schema) };
}

function lowerFirst(text: string | undefined): string | undefined {
  return text && `${text.charAt(0).toLowerCase()}${text.slice(1)}`;
}

/** Every field says something: its own description, else its bounds, else whether it is required. */
function fieldShape(schema: z.ZodType, nameHint: string, fallbackDescription?: string): InputFieldShape {
  const { inner, optional, defaultValue, description: own } = unwrapInput(schema);
  const description = own ?? fallbackDescription;
  const shown = defaultValue === undefined ? undefined : `Defaults to ${JSON.stringify(defaultValue)}`;
  const presence = optional || takesNothing(inner) ? "Optional" : "Required";
  if (inner instanceof z.ZodArray) {
    const item = unwrapInput(inner.element as z.ZodType);
    const required = { list: !optional, items: !item.optional && !takesNothing(item.inner) };
    if (!(item.inner instanceof z.ZodArray)) {
      const leaf = valueType(item.inner, nameHint);
      const itemNote = leaf.note ?? (description ? undefined : ruleNote(item.inner));
      return { type: [leaf.type], required, description: sentence(description ?? `${presence} list`, itemNote && `Each item: ${lowerFirst(itemNote)}`, shown) };
    }
    // A list of lists: GraphQL can say it, Pothos's list refs cannot nest; the items stay JSON.
    return { type: ["JSON"], required, description: sentence(description ?? `${presence} list`, "Each item: a JSON list", shown) };
  }
  const leaf = valueType(inner, nameHint);
  const rules = description ? undefined : ruleNote(inner);
  return { type: leaf.type, required: !optional && !takesNothing(inner), description: sentence(description ?? (leaf.note || rules ? undefined : presence), leaf.note, rules, shown) };
}

/** Whether a schema accepts null or nothing itself (a JSON value, unknown): never NonNull then. */
function takesNothing(schema: z.ZodType): boolean {
  return schema.safeParse(null).success || schema.safeParse(undefined).success;
}

/** A field an input type lists that its zod schema does not (an ignored or hidden key). */
export interface ExtraInputField {
  type: "String" | "JSON";
  description: string;
}

export interface InputObjectOptions {
  description?: string;
  /** Keys the schema does not name but the service accepts (a record's ignored fields). */
  extraFields?: Readonly<Record<string, ExtraInputField>>;
  /** Descriptions of fields the schema leaves undescribed (a record column's documentation). */
  fieldDescriptions?: Readonly<Record<string, string | undefined>>;
}

/** Whether an input object can be typed at all: GraphQL input objects need at least one field. */
export function hasInputFields(schema: z.ZodObject, options: InputObjectOptions = {}): boolean {
  return Object.keys(schema.shape).length + Object.keys(options.extraFields ?? {}).length > 0;
}

/** Whether the schema requires some field: the `input` argument taking it is then NonNull. */
export function requiresInput(schema: z.ZodObject): boolean {
  return Object.values(schema.shape).some((field) => {
    const { inner, optional } = unwrapInput(field);
    return !optional && !takesNothing(inner);
  });
}

/**
 * The GraphQL input object type of a zod object (built once per schema, named once per name).
 * `name` is used unless the schema has a `.meta({ id })`, then `<id>Input`.
 */
export function inputObjectTypeOf(schema: z.ZodObject, name: string, options: InputObjectOptions = {}): TypeRef {
  const withExtras = Object.keys(options.extraFields ?? {}).length > 0 || options.fieldDescriptions !== undefined;
  const known = withExtras ? undefined : bySchema.get(schema);
  if (known) return known;
  const id = withExtras ? undefined : z.globalRegistry.get(schema)?.id;
  const typeName = id ? `${pascal(id)}Input` : name;
  const existing = byName.get(typeName);
  if (existing) {
    if (existing.schema !== schema) throw new Error(`Two different input shapes are both named ${typeName}`);
    return existing.ref;
  }
  const ref = loose.inputRef(typeName);
  byName.set(typeName, { schema, ref });
  if (!withExtras) bySchema.set(schema, ref);
  const shape = schema.shape as Record<string, z.ZodType>;
  const stem = stemOf(typeName);
  ref.implement({
    description: options.description ?? descriptionOf(schema),
    fields: (t: any) => ({
      ...Object.fromEntries(
        Object.entries(shape).map(([key, field]) => {
          const { type, required, description } = fieldShape(field, `${stem}${pascal(key)}`, options.fieldDescriptions?.[key]);
          return [key, t.field({ type, required, description })];
        }),
      ),
      ...Object.fromEntries(
        Object.entries(options.extraFields ?? {})
          // A key GraphQL cannot name (`__x`) stays out: sent, it is refused with validation_failed.
          .filter(([key]) => !(key in shape) && GRAPHQL_NAME.test(key) && !key.startsWith("__"))
          .map(([key, extra]) => [key, t.field({ type: extra.type, required: false, description: extra.description })]),
      ),
    }),
  });
  return ref;
}
