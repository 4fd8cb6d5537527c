// GraphQL input types for filters: one operator set per kind of field, and one `<Model>Filter`
// per resource naming its filterable fields. REST's `field[op]=value` grammar produces the same
// object (rest/list-query.ts).
import { builder } from "../graphql/builder.js";
import type { ResourceDefinition } from "../registry/resource.js";
import { filterableFields, OPERATORS_BY_KIND, type FilterKind } from "./filters.js";
import { typeNameOf } from "./fields.js";

const loose = builder as any;

const VALUE_TYPE: Record<FilterKind, string> = {
  string: "String",
  number: "Float",
  integer: "Int",
  boolean: "Boolean",
  // Dates are given as ISO 8601 or unix seconds, like created_after.
  datetime: "String",
  string_list: "String",
};

const INPUT_NAME: Record<FilterKind, string> = {
  string: "StringFilter",
  number: "FloatFilter",
  integer: "IntFilter",
  boolean: "BooleanFilter",
  datetime: "DateTimeFilter",
  string_list: "StringListFilter",
};

const OPERATOR_DESCRIPTIONS: Record<string, string> = {
  eq: "equal to (on array fields: holds the value)",
  ne: "not equal to; records without a value match too (on array fields: does not hold the value)",
  gt: "greater than",
  gte: "greater than or equal to",
  lt: "less than",
  lte: "less than or equal to",
  in: "one of (on array fields: holds any of)",
  nin: "none of (on array fields: holds none of)",
  exists: "has a value (on array fields: is non-empty)",
  contains: "contains, ignoring case (on array fields: holds the value)",
  starts_with: "starts with, ignoring case",
};

const operatorInputs = new Map<FilterKind, unknown>();

function operatorInput(kind: FilterKind): unknown {
  let ref = operatorInputs.get(kind);
  if (!ref) {
    ref = loose.inputType(INPUT_NAME[kind], {
      description: `Conditions on a ${kind.replace("_", " ")} field; all given conditions must hold.`,
      fields: (t: any) =>
        Object.fromEntries(
          OPERATORS_BY_KIND[kind].map((operator) => {
            const description = OPERATOR_DESCRIPTIONS[operator];
            if (operator === "exists") return [operator, t.boolean({ description })];
            if (operator === "in" || operator === "nin") return [operator, t.field({ type: [VALUE_TYPE[kind]], description })];
            return [operator, t.field({ type: VALUE_TYPE[kind], description })];
          }),
        ),
    });
    operatorInputs.set(kind, ref);
  }
  return ref;
}

export function pascal(name: string): string {
  return name.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());
}

export function defineFilterInput(resource: ResourceDefinition): unknown {
  const fields = filterableFields(resource);
  if (fields.length === 0) return undefined;
  // Dotted fields (labels.language) nest: labels: { language: StringFilter }.
  const nested = new Map<string, string[]>();
  for (const field of fields.filter((candidate) => candidate.json)) {
    nested.set(field.json!.column, [...(nested.get(field.json!.column) ?? []), field.json!.path.join(".")]);
  }
  const nestedInputs = new Map(
    [...nested].map(([column, keys]) => [
      column,
      loose.inputType(`${typeNameOf(resource)}${pascal(column)}Filter`, {
        description: `Filters on keys of ${column}.`,
        fields: (t: any) => Object.fromEntries(keys.map((key) => [key, t.field({ type: operatorInput("string") })])),
      }),
    ]),
  );
  return loose.inputType(`${typeNameOf(resource)}Filter`, {
    description: `Filters on ${resource.name}; all given fields must match.`,
    fields: (t: any) => ({
      ...Object.fromEntries(fields.filter((field) => !field.json).map((field) => [field.name, t.field({ type: operatorInput(field.kind) })])),
      ...Object.fromEntries([...nestedInputs].map(([column, input]) => [column, t.field({ type: input })])),
    }),
  });
}
