// What PostgreSQL (and the service's own serialisers) can take, checked where input enters — REST
// bodies, query strings and paths, GraphQL documents and variables — so a value the database
// would refuse is the request's 4xx instead of a 500 from deep in a query:
// - text holds no NUL (U+0000): PostgreSQL text refuses it (22021), jsonb too (22P05);
// - text holds no lone UTF-16 surrogate: it has no UTF-8 form (jsonb refuses it, 22P05; text
//   would silently store U+FFFD instead);
// - JSON nests at most MAX_JSON_DEPTH levels: deeper values overflow the stack of
//   JSON.stringify (and of PostgreSQL's jsonb parser) long before they mean anything;
// - instants lie in the years 1 to 9999 (UTC), what PostgreSQL timestamps and ISO 8601 share.
import { ApiError } from "../errors/api-error.js";
import { validationFailed } from "./issues.js";

/** Deepest nesting of objects and arrays accepted in a JSON value (documented in docs/limits.md). */
export const MAX_JSON_DEPTH = 64;

export type TextProblem = "nul" | "lone_surrogate";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function textProblem(text: string): TextProblem | undefined {
  if (text.includes("\u0000")) return "nul";
  if (LONE_SURROGATE.test(text)) return "lone_surrogate";
  return undefined;
}

export const TEXT_PROBLEM_MESSAGES: Record<TextProblem, string> = {
  nul: "Text may not contain the NUL character (U+0000).",
  lone_surrogate: "Text may not contain a lone UTF-16 surrogate (\\ud800-\\udfff without its pair); it has no UTF-8 form.",
};

/** Issue types (docs/errors.md), Joi-style like the rest of `details.issues`. */
const ISSUE_TYPES: Record<JsonProblem["kind"], string> = { nul: "string.nul", lone_surrogate: "string.surrogate", too_deep: "object.depth" };

export interface JsonProblem {
  /** Where in the value: object keys and array indexes. */
  path: (string | number)[];
  kind: TextProblem | "too_deep";
}

interface Visit {
  value: unknown;
  key: string | number | undefined;
  parent: Visit | undefined;
  depth: number;
}

function pathOf(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let current: Visit | undefined = visit; current?.key !== undefined; current = current.parent) path.unshift(current.key);
  return path;
}

/**
 * The first string (value or key) PostgreSQL could not store, or the first value nested deeper
 * than `maxDepth`, in a parsed JSON value. Iterative, so a hostile depth cannot overflow it.
 */
export function findJsonProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonProblem | undefined {
  const stack: Visit[] = [{ value, key: undefined, parent: undefined, depth: 0 }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    if (typeof current === "string") {
      const kind = textProblem(current);
      if (kind) return { path: pathOf(visit), kind };
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    const depth = visit.depth + 1;
    if (depth > maxDepth) return { path: pathOf(visit), kind: "too_deep" };
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) stack.push({ value: current[index], key: index, parent: visit, depth });
      continue;
    }
    const entries: [string, unknown][] = Object.entries(current);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, item] = entries[index]!;
      const kind = textProblem(key);
      if (kind) return { path: [...pathOf(visit), key], kind };
      stack.push({ value: item, key, parent: visit, depth });
    }
  }
  return undefined;
}

function problemMessage(problem: JsonProblem, maxDepth: number): string {
  return problem.kind === "too_deep" ? `Values may nest at most ${maxDepth} objects or arrays deep.` : TEXT_PROBLEM_MESSAGES[problem.kind];
}

/**
 * 422 validation_failed for a JSON input PostgreSQL could not store; `prefix` names where the
 * value sits (e.g. `variables` for GraphQL variables; nothing for a REST body).
 */
export function assertStorableJson(value: unknown, prefix: readonly (string | number)[] = []): void {
  const problem = findJsonProblem(value);
  if (!problem) return;
  const path = [...prefix, ...problem.path].join(".");
  throw validationFailed([{ path, message: problemMessage(problem, MAX_JSON_DEPTH), type: ISSUE_TYPES[problem.kind] }]);
}

/** 400 invalid_request for a query parameter or path segment PostgreSQL could not store. */
export function assertStorableParam(param: string, value: string): void {
  const kind = textProblem(value);
  if (kind) throw new ApiError("invalid_request", `${param}: ${TEXT_PROBLEM_MESSAGES[kind]}`, { param });
}

/** 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the instants PostgreSQL and ISO 8601 share. */
export const EARLIEST_INSTANT_MS = Date.parse("0001-01-01T00:00:00.000Z");
export const LATEST_INSTANT_MS = Date.parse("9999-12-31T23:59:59.999Z");

export function isStorableInstant(date: Date): boolean {
  const time = date.getTime();
  return Number.isFinite(time) && time >= EARLIEST_INSTANT_MS && time <= LATEST_INSTANT_MS;
}
