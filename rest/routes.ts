// The REST route table, derived from the registries: resource routes (src/registry/resources.ts)
// and platform operations (src/registry/operations.ts). It says which operation a path and verb
// name, and which verbs a path answers at all (anything else is 405).
import { SERVED_RESOURCES } from "../src/registry/resources.js";
import type { ResourceDefinition } from "../src/registry/resource.js";
import { resourceOperations, type ResourceOperation } from "../src/resources/operations.js";
import { matchOperationPath, platformOperations, type PlatformOperation } from "../src/registry/operations.js";

export type RouteTarget =
  | { kind: "resource"; resource: ResourceDefinition; operation: ResourceOperation }
  | { kind: "platform"; operation: PlatformOperation };

export interface MatchedRoute {
  /** verb -> what serves it, including the POST alias of PATCH where offered */
  targets: Map<string, RouteTarget>;
  params: Record<string, string>;
  /** The resource the path belongs to, if it is a resource route. */
  resource?: ResourceDefinition;
}

interface RouteEntry {
  pattern: string;
  method: string;
  target: RouteTarget;
}

let table: RouteEntry[] | undefined;

function routeTable(): RouteEntry[] {
  if (table) return table;
  table = [];
  for (const resource of SERVED_RESOURCES) {
    for (const operation of resourceOperations(resource)) {
      const target: RouteTarget = { kind: "resource", resource, operation };
      table.push({ pattern: operation.path, method: operation.method, target });
      if (operation.route === "update" && resource.postAlias) table.push({ pattern: operation.path, method: "POST", target });
    }
  }
  for (const operation of platformOperations()) {
    table.push({ pattern: operation.path, method: operation.method, target: { kind: "platform", operation } });
  }
  return table;
}

/** Matches a path relative to /api/v1 (e.g. `/videos/vid_123`). */
export function matchRoute(path: string): MatchedRoute | undefined {
  const candidates = routeTable().flatMap((entry) => {
    const params = matchOperationPath(entry.pattern, path);
    return params ? [{ entry, params }] : [];
  });
  if (candidates.length === 0) return undefined;
  // A literal segment beats a parameter: /events/types is not the event with id "types".
  const literals = (pattern: string) => pattern.split("/").filter((segment) => segment && !segment.startsWith(":")).length;
  const best = Math.max(...candidates.map(({ entry }) => literals(entry.pattern)));
  const chosen = candidates.filter(({ entry }) => literals(entry.pattern) === best);
  const first = chosen[0]!;
  const matched: MatchedRoute = { targets: new Map(), params: first.params, resource: first.entry.target.kind === "resource" ? first.entry.target.resource : undefined };
  for (const { entry } of chosen) if (!matched.targets.has(entry.method)) matched.targets.set(entry.method, entry.target);
  return matched;
}

export function allowHeader(route: MatchedRoute): string {
  const methods = [...route.targets.keys()];
  if (methods.includes("GET")) methods.push("HEAD");
  return methods.join(", ");
}
