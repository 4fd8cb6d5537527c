// The query-string grammar of REST lists (contract 4.2): list arguments, `fields`/`expand`/
// `format`, and filters written `field=value` or `field[op]=value` (`in`/`nin` take
// comma-separated values). Every parameter is checked here, so an undeclared one is a 400 naming
// it, and filters become the same typed object GraphQL's `filter` argument takes.
import { ApiError } from "../src/errors/api-error.js";
import type { ResourceDefinition } from "../src/registry/resource.js";
import { didYouMean } from "../src/validation/did-you-mean.js";
import { LIMIT_RULE, LIST_ARGUMENTS, OFFSET_RULE, badListArgument } from "../src/resources/list.js";
import { MAX_PAGE_SIZE } from "../src/contract.js";
import { FILTER_OPERATORS, OPERATORS_BY_KIND, filterableFieldMap, typedValue, type FilterKind, type FilterOperator, type ResourceFilter } from "../src/resources/filters.js";

/** Parameters Sofa maps onto the list field's GraphQL arguments. */
const LIST_ARGUMENT_NAMES: readonly string[] = Object.keys(LIST_ARGUMENTS);
/** Parameters the REST layer itself handles. */
const REST_LIST_PARAMS = ["fields", "expand", "format"] as const;
const OUTPUT_FORMATS = ["json", "ndjson", "csv"];

/**
 * `format` chooses the output (json, ndjson, csv) — except that on a resource with a filterable
 * field named `format` (scripts), any other value filters on that field.
 */
export function outputFormatParam(resource: ResourceDefinition, query: URLSearchParams): string | null {
  const value = query.get("format");
  if (value !== null && resource.filterable.includes("format") && !OUTPUT_FORMATS.includes(value)) return null;
  return value;
}

const argumentType = (name: string) => (LIST_ARGUMENTS as Record<string, { type: string }>)[name]?.type;
const FILTER_PARAM = /^([a-z0-9_]+(?:\.[a-z0-9_]+)?)(?:\[([a-z_]+)\])?$/;

function unknownParam(name: string, allowed: readonly string[]): ApiError {
  const suggestion = didYouMean(name.replace(/\[.*$/, ""), allowed);
  return new ApiError("invalid_request", `Unknown query parameter '${name}'.${suggestion ? ` Did you mean '${suggestion}'?` : ""}`, {
    param: name,
    details: { allowed: [...allowed], ...(suggestion && { did_you_mean: suggestion }) },
  });
}

export function assertOnlyParams(query: URLSearchParams, allowed: readonly string[]): void {
  for (const name of new Set(query.keys())) {
    if (!allowed.includes(name)) throw unknownParam(name, allowed);
  }
}

export interface ListQuery {
  /** Canonical list arguments, as Sofa reads them. */
  arguments: URLSearchParams;
  filter?: ResourceFilter;
}

/** Exports (ndjson, csv) read `limit` as a cap on the total, so it may exceed a page. */
export const EXPORT_LIMIT_RULE = "limit must be a positive integer (on an export it caps the number of records).";

const INT32_MAX = 2_147_483_647;

/**
 * limit and offset, checked here in the resolver's own words (422 validation_failed, contract 4.2)
 * so Sofa never sees a bad integer.
 */
function assertIntegerArgument(name: string, value: string, exporting: boolean): void {
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  const type = Number.isNaN(number) ? "number.base" : undefined;
  if (name === "limit") {
    const max = exporting ? INT32_MAX : MAX_PAGE_SIZE;
    if (!(number >= 1 && number <= max)) throw badListArgument(name, exporting ? EXPORT_LIMIT_RULE : LIMIT_RULE, type ?? (number < 1 ? "number.min" : "number.max"));
    return;
  }
  if (!(number >= 0 && number <= INT32_MAX)) {
    throw badListArgument(name, name === "offset" ? OFFSET_RULE : `${name} must be a non-negative integer.`, type ?? "number.max");
  }
}

const KIND_NAMES: Record<FilterKind, string> = {
  string: "a text field",
  number: "a number field",
  integer: "an integer field",
  boolean: "a true/false field",
  datetime: "a date field",
  string_list: "a list field",
};

export interface ListQueryOptions {
  /** ndjson or csv: `limit` caps the total instead of sizing a page. */
  exporting?: boolean;
}

export function parseListQuery(resource: ResourceDefinition, query: URLSearchParams, options: ListQueryOptions = {}): ListQuery {
  const fields = filterableFieldMap(resource);
  const filterable = new Set(fields.keys());
  const allowed = [...LIST_ARGUMENT_NAMES, ...REST_LIST_PARAMS, ...filterable];
  const args = new URLSearchParams();
  const filter: ResourceFilter = {};

  for (const name of new Set(query.keys())) {
    const values = query.getAll(name);
    const formatFilter = name === "format" && outputFormatParam(resource, query) === null;
    if (!formatFilter && (LIST_ARGUMENT_NAMES.includes(name) || (REST_LIST_PARAMS as readonly string[]).includes(name))) {
      if (values.length > 1) throw new ApiError("invalid_request", `${name} may be given once.`, { param: name });
      const value = values[0]!;
      if (argumentType(name) === "integer") assertIntegerArgument(name, value, options.exporting ?? false);
      if (argumentType(name) === "boolean" && value !== "true" && value !== "false") {
        throw badListArgument(name, `${name} must be true or false.`, "boolean.base", ["true", "false"]);
      }
      if (LIST_ARGUMENT_NAMES.includes(name)) args.set(name, value);
      continue;
    }
    const match = FILTER_PARAM.exec(name);
    const field = match?.[1];
    const operator = match?.[2] ?? "eq";
    if (!field || !filterable.has(field)) throw unknownParam(name, allowed);
    if (!(FILTER_OPERATORS as readonly string[]).includes(operator)) {
      throw new ApiError("invalid_request", `Unknown filter operator '${operator}'; use one of ${FILTER_OPERATORS.join(", ")}.`, {
        param: name,
        details: { allowed: [...FILTER_OPERATORS] },
      });
    }
    if (values.length > 1) throw new ApiError("invalid_request", `${name} may be given once; use [in] for several values.`, { param: name });
    const value = values[0]!;
    const definition = fields.get(field)!;
    // An operator that does not fit the field's type is refused here, in our words, before it
    // could reach GraphQL's typed filter input as a variable error.
    const fitting = OPERATORS_BY_KIND[definition.kind];
    if (!fitting.includes(operator as FilterOperator)) {
      throw new ApiError("invalid_request", `The operator '${operator}' does not apply to ${field}, ${KIND_NAMES[definition.kind]}; use one of ${fitting.join(", ")}.`, {
        param: name,
        details: { field, operator, allowed: [...fitting] },
      });
    }
    // Dotted fields nest, as GraphQL's filter input does: labels.language -> labels: { language }.
    const [head, inner] = field.split(".") as [string, string | undefined];
    const conditions = (inner ? (((filter[head] ??= {}) as Record<string, Record<string, unknown>>)[inner] ??= {}) : (filter[field] ??= {})) as Record<string, unknown>;
    // Values are typed by the field here so GraphQL's typed filter input accepts them; dates stay
    // text (the resolver parses ISO 8601 and unix seconds alike).
    const typed = (raw: string) => (definition.kind === "datetime" ? (typedValue(definition, raw, name), raw) : typedValue(definition, raw, name));
    conditions[operator] =
      operator === "in" || operator === "nin"
        ? value.split(",").map((item) => typed(item.trim()))
        : operator === "exists"
          ? typedValue({ ...definition, kind: "boolean" }, value, name)
          : typed(value);
  }
  return { arguments: args, filter: Object.keys(filter).length > 0 ? filter : undefined };
}
