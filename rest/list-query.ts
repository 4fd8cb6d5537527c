// The query-string grammar of REST lists (contract 4.2). Every parameter is checked here, so an
// undeclared one is a 400 naming it rather than something silently ignored.
import { ApiError } from "../src/errors/api-error.js";
import { didYouMean } from "../src/validation/did-you-mean.js";

/** Parameters Sofa maps onto the list field's GraphQL arguments. */
export const LIST_ARGUMENTS = ["limit", "cursor", "offset", "sort", "order", "include_total", "created_after", "created_before", "q"] as const;
/** Parameters the REST layer itself handles. */
export const REST_LIST_PARAMS = ["fields", "expand", "format"] as const;

const INTEGER_PARAMS = new Set(["limit", "offset"]);
const BOOLEAN_PARAMS = new Set(["include_total"]);

function unknownParam(name: string, allowed: readonly string[]): ApiError {
  const suggestion = didYouMean(name, allowed);
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

export function validateListQuery(query: URLSearchParams): void {
  assertOnlyParams(query, [...LIST_ARGUMENTS, ...REST_LIST_PARAMS]);
  for (const [name, value] of query) {
    if (INTEGER_PARAMS.has(name) && !/^\d+$/.test(value)) {
      throw new ApiError("invalid_request", `${name} must be a non-negative integer.`, { param: name });
    }
    if (BOOLEAN_PARAMS.has(name) && value !== "true" && value !== "false") {
      throw new ApiError("invalid_request", `${name} must be true or false.`, { param: name });
    }
  }
  if (query.getAll("cursor").length > 1 || query.getAll("limit").length > 1) {
    throw new ApiError("invalid_request", "cursor and limit may be given once.", { param: query.getAll("cursor").length > 1 ? "cursor" : "limit" });
  }
  const format = query.get("format");
  if (format !== null && format !== "json") {
    throw new ApiError("unsupported_format", `Format '${format}' is not supported here.`, { param: "format", details: { allowed: ["json"] } });
  }
}
