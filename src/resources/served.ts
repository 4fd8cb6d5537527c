// Every operation the API serves, walked once: the resource routes of the registry and the
// platform operations (usage, keys, webhooks, events, actions). Sofa's routes, the REST route table
// with its 405s, the OpenAPI document and discovery all read this one list, so a route exists
// everywhere or nowhere.
import type { ResourceDefinition } from "../registry/resource.js";
import { servedResources } from "../registry/resources.js";
import { platformOperations, type HttpMethod, type PlatformOperation } from "../registry/operations.js";
import { requiredScope, resourceOperations, type ResourceOperation } from "./operations.js";

interface Served {
  rootType: "Query" | "Mutation";
  fieldName: string;
  method: HttpMethod;
  /** Relative to /api/v1, with `:param` placeholders. */
  path: string;
  scopes: readonly string[];
  successStatus: 200 | 201;
  /** OpenAPI tag: the resource's name, or the operation's own. */
  tag: string;
}

export type ServedOperation =
  | (Served & { kind: "resource"; resource: ResourceDefinition; operation: ResourceOperation })
  | (Served & { kind: "platform"; operation: PlatformOperation });

/** The resource routes, then the platform operations (declared when the schema is built). */
export function servedOperations(): ServedOperation[] {
  const served: ServedOperation[] = [];
  for (const resource of servedResources()) {
    for (const operation of resourceOperations(resource)) {
      const { rootType, fieldName, method, path, successStatus } = operation;
      served.push({ kind: "resource", resource, operation, rootType, fieldName, method, path, successStatus, scopes: [requiredScope(resource, operation)], tag: resource.name });
    }
  }
  for (const operation of platformOperations()) {
    const { rootType, fieldName, method, path, successStatus, scopes, tag } = operation;
    served.push({ kind: "platform", operation, rootType, fieldName, method, path, successStatus, scopes, tag });
  }
  return served;
}
