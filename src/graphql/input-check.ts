// One validation vocabulary for typed inputs (docs/graphql.md, "Typed inputs and validation").
//
// An action's or a record's `input` is a GraphQL input object type (./zod-input.ts), so graphql-js
// refuses a wrong input (unknown field, wrong type, missing required field, missing `input`)
// before any resolver runs, with messages of its own. A field taking such an input carries an
// InputCheck in its extensions; when the input is refused, the endpoint (src/graphql-endpoint/
// input-refusals.ts) asks it for the refusal the resolver would have given (the scope check first,
// then the zod schema's own 422 `validation_failed`), so GraphQL and REST answer the same error.
// When the zod schema accepts what GraphQL refused (a quoted enum value in a document), the
// refusal is GraphQL's, told in the same vocabulary (`inputIssues`).
import {
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLInputType,
} from "graphql";
import type { ApiError } from "../errors/api-error.js";
import { dotted, notOneOfIssue, unknownFieldIssue, validationFailed, type ValidationIssue } from "../validation/issues.js";
import type { GraphQLContext } from "./context.js";

/** The extension key of a root field's InputCheck. */
export const INPUT_CHECK = "cutroomInputCheck";

export interface InputCheck {
  /** Scopes the field requires: a key without them is answered 403, whatever its input. */
  scopes: readonly string[];
  /**
   * Throws the error the field's resolver would answer for this raw input (a 404 for a record of
   * another workspace, the schema's 422), or returns when the schema accepts the input.
   */
  validate(context: GraphQLContext, raw: unknown, args: Record<string, unknown>): void | Promise<void>;
  /** Told the refusal once it is known (an action records action.failed). */
  refused?(context: GraphQLContext, error: ApiError): Promise<void>;
}

/** The field extensions carrying a check (Pothos `extensions` option). */
export function inputCheckExtension(check: InputCheck): Record<string, unknown> {
  return { [INPUT_CHECK]: check };
}

function typeLabel(type: GraphQLInputType): string {
  const named = getNullableType(type);
  if (isScalarType(named)) return { String: "string", Int: "number", Float: "number", Boolean: "boolean" }[named.name] ?? "value";
  return isListType(named) ? "array" : isInputObjectType(named) ? "object" : "value";
}

/**
 * What GraphQL's input coercion refuses in a raw value, as the contract's issues: a missing
 * required field, an unknown field (with `allowed` and `did_you_mean`), a value of the wrong
 * type, an enum value not in the set.
 */
export function inputIssues(value: unknown, type: GraphQLInputType, path: (string | number)[] = []): ValidationIssue[] {
  if (isNonNullType(type)) {
    if (value === undefined || value === null) return [{ path: dotted(path), message: "This field is required.", type: "any.required" }];
    return inputIssues(value, type.ofType, path);
  }
  if (value === undefined || value === null) return [];
  if (isListType(type)) {
    // GraphQL takes a single value where a list is expected as a list of one.
    const items = Array.isArray(value) ? value : [value];
    return items.flatMap((item, index) => inputIssues(item, type.ofType, Array.isArray(value) ? [...path, index] : path));
  }
  if (isInputObjectType(type)) {
    if (typeof value !== "object" || Array.isArray(value)) {
      return [{ path: dotted(path), message: path.length ? "Expected object." : "The body must be a JSON object.", type: "object.base" }];
    }
    const fields = type.getFields();
    const allowed = Object.keys(fields);
    const issues: ValidationIssue[] = [];
    for (const key of Object.keys(value)) if (!fields[key]) issues.push(unknownFieldIssue(path, key, allowed));
    for (const [key, field] of Object.entries(fields)) issues.push(...inputIssues((value as Record<string, unknown>)[key], field.type, [...path, key]));
    return issues;
  }
  if (isEnumType(type)) {
    const allowed = type.getValues().map((entry) => entry.name);
    if (typeof value === "string" && allowed.includes(value)) return [];
    return [notOneOfIssue(path, value, allowed)];
  }
  try {
    if (type.parseValue(value) !== undefined) return [];
  } catch {
    // reported below
  }
  const label = typeLabel(type);
  return [{ path: dotted(path), message: `Expected ${label}.`, type: `${label}.base` }];
}

/**
 * GraphQL's own refusal of a raw input, in the contract's vocabulary. `fallback` says what
 * GraphQL found wrong when the walk over the value finds nothing (a literal written the wrong way).
 */
export function graphqlInputRefusal(value: unknown, type: GraphQLInputType, fallback?: string): ApiError {
  const issues = inputIssues(value, type);
  if (issues.length > 0) return validationFailed(issues);
  return validationFailed([{ path: "", message: fallback ?? "The input does not match its GraphQL type.", type: "any.invalid" }]);
}
