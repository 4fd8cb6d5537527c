// Query and path values reach SQL (filters, search, ids): none may hold what PostgreSQL refuses.
import { assertStorableParam } from "../../src/validation/storable.js";
import { pathSegments } from "../../src/registry/operations.js";
import type { MatchedRoute } from "../routes.js";

/** Every query name and value, checked before any route runs. */
export function assertStorableQuery(query: URLSearchParams): void {
  for (const [name, value] of query) {
    assertStorableParam(name, name);
    assertStorableParam(name, value);
  }
}

/** A path parameter (a record id) holding what PostgreSQL refuses is a 400 naming the parameter. */
export function assertStorablePathParams(path: string, route: MatchedRoute): void {
  const pattern = pathSegments([...route.targets.values()][0]!.operation.path);
  for (const [index, segment] of pathSegments(path).entries()) {
    const name = pattern[index]?.startsWith(":") ? pattern[index].slice(1) : "path";
    assertStorableParam(name, decodeURIComponent(segment));
  }
}
