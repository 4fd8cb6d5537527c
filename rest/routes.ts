// The REST route table, derived from the served operations (src/resources/served.ts). It says which
// operation a path and verb name, and which verbs a path answers at all (anything else is 405).
import type { ResourceDefinition } from "../src/registry/resource.js";
import type { ResourceOperation } from "../src/resources/operations.js";
import { matchOperationPath, pathSegments, type PlatformOperation } from "../src/registry/operations.js";
import { servedOperations } from "../src/resources/served.js";

export type RouteTarget =
  | { kind: "resource"; resource: ResourceDefinition; operation: ResourceOperation }
  | { kind: "platform"; operation: PlatformOperation };

export interface MatchedRoute {
  /** verb -> what serves it, including the POST alias of PATCH where offered */
  targets: Map<string, RouteTarget>;
}

interface RouteEntry {
  segments: string[];
  /** How many segments are literal: a literal beats a parameter (/events/types is not an event id). */
  literals: number;
  method: string;
  target: RouteTarget;
}

function entry(pattern: string, method: string, target: RouteTarget): RouteEntry {
  const segments = pathSegments(pattern);
  return { segments, literals: segments.filter((segment) => !segment.startsWith(":")).length, method, target };
}

/**
 * The table, indexed by segment count and first segment (`2/videos`), so a request tries the few
 * routes of its own resource rather than every one of them. A pattern opening with a parameter
 * would be tried for every path of its length.
 */
interface RouteIndex {
  byHead: Map<string, RouteEntry[]>;
  openingWithParameter: RouteEntry[];
}

let index: RouteIndex | undefined;

function routeIndex(): RouteIndex {
  if (index) return index;
  const built: RouteIndex = { byHead: new Map(), openingWithParameter: [] };
  const add = (route: RouteEntry) => {
    const head = route.segments[0] ?? "";
    if (head.startsWith(":")) {
      built.openingWithParameter.push(route);
      return;
    }
    const key = `${route.segments.length}/${head}`;
    const routes = built.byHead.get(key);
    if (routes) routes.push(route);
    else built.byHead.set(key, [route]);
  };
  for (const served of servedOperations()) {
    if (served.kind === "platform") {
      add(entry(served.path, served.method, { kind: "platform", operation: served.operation }));
      continue;
    }
    const target: RouteTarget = { kind: "resource", resource: served.resource, operation: served.operation };
    add(entry(served.path, served.method, target));
    if (served.operation.route === "update" && served.resource.postAlias) add(entry(served.path, "POST", target));
  }
  return (index = built);
}

/** Matches a path relative to /api/v1 (e.g. `/videos/vid_123`). */
export function matchRoute(path: string): MatchedRoute | undefined {
  const have = pathSegments(path);
  const { byHead, openingWithParameter } = routeIndex();
  const sameHead = byHead.get(`${have.length}/${have[0] ?? ""}`) ?? [];
  const candidates = [...sameHead, ...openingWithParameter].filter((candidate) => matchOperationPath(candidate.segments, have) !== undefined);
  if (candidates.length === 0) return undefined;
  const best = Math.max(...candidates.map((candidate) => candidate.literals));
  const matched: MatchedRoute = { targets: new Map() };
  for (const candidate of candidates) {
    if (candidate.literals === best && !matched.targets.has(candidate.method)) matched.targets.set(candidate.method, candidate.target);
  }
  return matched;
}

export function allowHeader(route: MatchedRoute): string {
  const methods = [...route.targets.keys()];
  if (methods.includes("GET")) methods.push("HEAD");
  return methods.join(", ");
}
