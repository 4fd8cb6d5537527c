// The GraphQL root fields of a resource and the REST route each one is served at. GraphQL fields
// and Sofa routes are both derived from this one table.
import type { ResourceDefinition, RouteKind } from "../registry/resource.js";

export interface ResourceOperation {
  route: RouteKind;
  /** Query or Mutation */
  rootType: "Query" | "Mutation";
  fieldName: string;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Sofa path (`:param` placeholders), relative to /api/v1 */
  path: string;
  /** required scope action on the resource's group */
  scopeAction: "read" | "write" | "delete";
  successStatus: 200 | 201;
}

export function resourceOperations(resource: ResourceDefinition): ResourceOperation[] {
  const collection = `/${resource.name}`;
  const member = `/${resource.name}/:${resource.idField}`;
  const all: Record<RouteKind, ResourceOperation> = {
    list: { route: "list", rootType: "Query", fieldName: resource.name, method: "GET", path: collection, scopeAction: "read", successStatus: 200 },
    get: { route: "get", rootType: "Query", fieldName: resource.kind, method: "GET", path: member, scopeAction: "read", successStatus: 200 },
    create: { route: "create", rootType: "Mutation", fieldName: `create_${resource.kind}`, method: "POST", path: collection, scopeAction: "write", successStatus: 201 },
    update: { route: "update", rootType: "Mutation", fieldName: `update_${resource.kind}`, method: "PATCH", path: member, scopeAction: "write", successStatus: 200 },
    delete: { route: "delete", rootType: "Mutation", fieldName: `delete_${resource.kind}`, method: "DELETE", path: member, scopeAction: "delete", successStatus: 200 },
  };
  return resource.routes.map((route) => all[route]);
}

export function requiredScope(resource: ResourceDefinition, operation: ResourceOperation): string {
  return `${resource.scopeGroup}:${operation.scopeAction}`;
}
