// The REST route table, derived from the resource registry: which resource a path names, which
// verbs it answers (anything else is 405), and the Sofa operation behind each verb.
import { SERVED_RESOURCES } from "../src/registry/resources.js";
import type { ResourceDefinition } from "../src/registry/resource.js";
import { resourceOperations, type ResourceOperation } from "../src/resources/operations.js";

export interface MatchedRoute {
  resource: ResourceDefinition;
  /** true for /{resource}/{id}, false for /{resource} */
  member: boolean;
  id?: string;
  /** verb -> operation, including the POST alias of PATCH where offered */
  operations: Map<string, ResourceOperation>;
}

function operationsFor(resource: ResourceDefinition, member: boolean): Map<string, ResourceOperation> {
  const byMethod = new Map<string, ResourceOperation>();
  for (const operation of resourceOperations(resource)) {
    const isMember = operation.path.includes("/:");
    if (isMember !== member) continue;
    byMethod.set(operation.method, operation);
    if (operation.route === "update" && resource.postAlias) byMethod.set("POST", operation);
  }
  return byMethod;
}

/** Matches a path relative to /api/v1 (e.g. `/videos/vid_123`). */
export function matchResourceRoute(path: string): MatchedRoute | undefined {
  const segments = path.split("/").filter(Boolean);
  if (segments.length < 1 || segments.length > 2) return undefined;
  const resource = SERVED_RESOURCES.find((candidate) => candidate.name === segments[0]);
  if (!resource) return undefined;
  const member = segments.length === 2;
  let id: string | undefined;
  try {
    id = member ? decodeURIComponent(segments[1]!) : undefined;
  } catch {
    return undefined; // a malformed escape names no record: 404
  }
  return { resource, member, id, operations: operationsFor(resource, member) };
}

export function allowHeader(route: MatchedRoute): string {
  const methods = [...route.operations.keys()];
  if (methods.includes("GET")) methods.push("HEAD");
  return methods.join(", ");
}
