// Filters on a resource's filterable fields (contract 4.2): which operators each field takes,
// how values are typed, and the Prisma condition each becomes. Only declared fields and these
// operators exist, so nothing a client sends reaches the database as an operator.
import { ApiError } from "../errors/api-error.js";
import { Prisma } from "../generated/prisma/client.js";
import type { ResourceDefinition } from "../registry/resource.js";
import { perResource } from "../registry/per-resource.js";
import { columnByName } from "./fields.js";
import { escapeLike, parseInstant } from "./list.js";

export const FILTER_OPERATORS = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "exists", "contains", "starts_with"] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** How a filterable field's values are typed and compared. */
export type FilterKind = "string" | "number" | "integer" | "boolean" | "datetime" | "string_list";

export const OPERATORS_BY_KIND: Record<FilterKind, readonly FilterOperator[]> = {
  string: ["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "exists", "contains", "starts_with"],
  number: ["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "exists"],
  integer: ["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "exists"],
  boolean: ["eq", "ne", "exists"],
  datetime: ["eq", "ne", "gt", "gte", "lt", "lte", "exists"],
  // Array fields: eq/contains = holds the value, ne = does not, in = holds any, nin = holds none,
  // exists = is non-empty.
  string_list: ["eq", "ne", "in", "nin", "exists", "contains"],
};

export interface FilterableField {
  /** The API name: a column, a virtual field, or `column.key` inside a JSON column. */
  name: string;
  kind: FilterKind;
  nullable: boolean;
  /** For `column.key` fields: the JSON column and the path inside it. */
  json?: { column: string; path: string[] };
}

/** One field's conditions, as GraphQL receives them and REST's grammar produces them. */
export type FieldFilter = Partial<Record<FilterOperator, unknown>>;
export type ResourceFilter = Record<string, FieldFilter | null | undefined>;

type Where = Record<string, unknown>;

export const filterableFields = perResource((resource): readonly FilterableField[] =>
  resource.filterable.map((name) => {
    if (name.includes(".")) {
      const [column, ...path] = name.split(".");
      if (columnByName(resource, column!)?.type !== "Json") throw new Error(`${resource.name}.${name}: only JSON columns take dotted filters`);
      // Values inside JSON are compared as text; a missing key counts as no value.
      return { name, kind: "string", nullable: true, json: { column: column!, path } };
    }
    const virtual = resource.virtualFields?.[name];
    if (virtual) {
      if (!virtual.filter) throw new Error(`${resource.name}.${name} is declared filterable but has no filter`);
      return { name, kind: "string_list", nullable: false };
    }
    const column = columnByName(resource, name);
    if (!column) throw new Error(`${resource.name} declares unknown filterable field ${name}`);
    const kind: FilterKind | undefined = column.isList
      ? "string_list"
      : ({ String: "string", Boolean: "boolean", Int: "integer", Float: "number", DateTime: "datetime" } as const)[column.type as "String"];
    if (!kind) throw new Error(`${resource.name}.${name} (${column.type}) cannot be filtered`);
    return { name, kind, nullable: !column.isRequired };
  }),
);

/** Filterable fields by name. */
export const filterableFieldMap = perResource((resource): ReadonlyMap<string, FilterableField> => new Map(filterableFields(resource).map((field) => [field.name, field])));

function invalid(param: string, message: string): ApiError {
  return new ApiError("invalid_request", message, { param });
}

/** Types one value for a field; `param` names it in errors (e.g. `published[eq]`). */
export function typedValue(field: FilterableField, raw: unknown, param: string): unknown {
  switch (field.kind) {
    case "boolean":
      if (raw === true || raw === "true") return true;
      if (raw === false || raw === "false") return false;
      throw invalid(param, `${field.name} takes true or false.`);
    case "integer":
    case "number": {
      const value = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : Number.NaN;
      // Integers are GraphQL Ints: 32 bits.
      if (!Number.isFinite(value) || (field.kind === "integer" && (!Number.isInteger(value) || Math.abs(value) > 2_147_483_647))) {
        throw invalid(param, `${field.name} takes ${field.kind === "integer" ? "an integer" : "a number"}.`);
      }
      return value;
    }
    case "datetime":
      if (typeof raw !== "string" && typeof raw !== "number") throw invalid(param, `${field.name} takes an ISO 8601 date or unix seconds.`);
      return parseInstant(String(raw), param);
    case "string":
    case "string_list":
      if (typeof raw !== "string") throw invalid(param, `${field.name} takes text.`);
      return raw;
  }
}

function columnCondition(field: FilterableField, operator: FilterOperator, value: unknown): Where {
  const name = field.name;
  const orNull = (condition: Where): Where => (field.nullable ? { OR: [condition, { [name]: null }] } : condition);
  switch (operator) {
    case "eq":
      return { [name]: value };
    case "ne":
      // A record without a value is "not equal" too.
      return orNull({ [name]: { not: value } });
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      return { [name]: { [operator]: value } };
    case "in":
      return { [name]: { in: value } };
    case "nin":
      return orNull({ [name]: { notIn: value } });
    case "exists":
      // A required column always has a value.
      if (!field.nullable) return value ? {} : { [name]: { in: [] } };
      return value ? { [name]: { not: null } } : { [name]: null };
    case "contains":
      return { [name]: { contains: escapeLike(String(value)), mode: "insensitive" } };
    case "starts_with":
      return { [name]: { startsWith: escapeLike(String(value)), mode: "insensitive" } };
  }
}

/** Conditions on a text value inside a JSON column (Prisma JSON path filters). */
function jsonPathCondition(json: NonNullable<FilterableField["json"]>, operator: FilterOperator, value: unknown): Where {
  const at = (condition: Record<string, unknown>): Where => ({ [json.column]: { path: json.path, ...condition } });
  const missing = at({ equals: Prisma.AnyNull });
  switch (operator) {
    case "eq":
      return at({ equals: value });
    case "ne":
      return { OR: [{ NOT: at({ equals: value }) }, missing] };
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      return at({ [operator]: value });
    case "in":
      return { OR: (value as unknown[]).map((item) => at({ equals: item })) };
    case "nin":
      return { OR: [{ NOT: { OR: (value as unknown[]).map((item) => at({ equals: item })) } }, missing] };
    case "exists":
      return value ? { NOT: missing } : missing;
    case "contains":
      return at({ string_contains: value });
    case "starts_with":
      return at({ string_starts_with: value });
  }
}

/**
 * GraphQL nests dotted fields (`labels: { language: {...} }`); REST's grammar produces the same
 * nesting. Conditions are computed on the flat, dotted names.
 */
function flattenFilter(filter: ResourceFilter, fields: ReadonlyMap<string, FilterableField>): ResourceFilter {
  const flat: ResourceFilter = {};
  for (const [key, value] of Object.entries(filter)) {
    const nested = !fields.has(key) && [...fields.keys()].some((name) => name.startsWith(`${key}.`));
    if (nested && value && typeof value === "object") {
      for (const [inner, conditions] of Object.entries(value)) flat[`${key}.${inner}`] = conditions as FieldFilter;
    } else {
      flat[key] = value;
    }
  }
  return flat;
}

function arrayColumnCondition(name: string, operator: FilterOperator, value: unknown): Where {
  switch (operator) {
    case "eq":
    case "contains":
      return { [name]: { has: value } };
    case "ne":
      return { NOT: { [name]: { has: value } } };
    case "in":
      return { [name]: { hasSome: value } };
    case "nin":
      return { NOT: { [name]: { hasSome: value } } };
    case "exists":
      return value ? { NOT: { [name]: { isEmpty: true } } } : { [name]: { isEmpty: true } };
    default:
      throw new Error(`operator ${operator} is not offered on array fields`);
  }
}

/** Prisma conditions for a filter; rejects undeclared fields and operators with 400s. */
export function filterConditions(resource: ResourceDefinition, filter: ResourceFilter | null | undefined): Where[] {
  if (!filter) return [];
  const fields = filterableFieldMap(resource);
  const conditions: Where[] = [];
  for (const [name, operators] of Object.entries(flattenFilter(filter, fields))) {
    if (operators === null || operators === undefined) continue;
    const field = fields.get(name);
    if (!field) throw invalid(name, `${resource.name} cannot be filtered by '${name}'.`);
    for (const [operator, raw] of Object.entries(operators)) {
      if (raw === null || raw === undefined) continue;
      const param = `${name}[${operator}]`;
      if (!OPERATORS_BY_KIND[field.kind].includes(operator as FilterOperator)) {
        throw invalid(param, `'${operator}' is not an operator for ${name}; use one of ${OPERATORS_BY_KIND[field.kind].join(", ")}.`);
      }
      const op = operator as FilterOperator;
      let value: unknown;
      if (op === "in" || op === "nin") {
        const list = Array.isArray(raw) ? raw : [raw];
        if (list.length === 0 || list.length > 100) throw invalid(param, `${param} takes 1 to 100 values.`);
        value = list.map((item) => typedValue(field, item, param));
      } else if (op === "exists") {
        value = typedValue({ ...field, kind: "boolean" }, raw, param);
      } else {
        value = typedValue(field, raw, param);
      }
      const virtual = resource.virtualFields?.[name];
      if (field.json) conditions.push(jsonPathCondition(field.json, op, value));
      else if (virtual?.filter) conditions.push(virtual.filter(op, value));
      else if (field.kind === "string_list") conditions.push(arrayColumnCondition(name, op, value));
      else conditions.push(columnCondition(field, op, value));
    }
  }
  return conditions;
}
