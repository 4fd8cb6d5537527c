// GET /api/v1: what the calling key can do — its workspace and scopes, the resource routes its
// scopes open, and the limits that apply (documented in docs/discovery.md).
import { API_VERSION } from "../src/config.js";
import type { AuthContext } from "../src/auth/auth-context.js";
import { hasScope, missingScopes } from "../src/auth/scopes.js";
import { LIVE_ACTIONS } from "../src/actions/live.js";
import { SERVED_RESOURCES } from "../src/registry/resources.js";
import { resourceOperations, requiredScope } from "../src/resources/operations.js";
import { REQUEST_LIMITS } from "./body.js";
import { API_BASE_PATH } from "./sofa.js";
import { openApiPath } from "../src/registry/operations.js";

function restPath(path: string): string {
  return `${API_BASE_PATH}${openApiPath(path)}`;
}

export function describeKeyAccess(auth: AuthContext) {
  const resources = SERVED_RESOURCES.map((resource) => {
    const routes = resourceOperations(resource)
      .filter((operation) => hasScope(auth.scopes, requiredScope(resource, operation)))
      .flatMap((operation) => {
        const route = { method: operation.method, path: restPath(operation.path), scope: requiredScope(resource, operation) };
        return operation.route === "update" && resource.postAlias ? [route, { ...route, method: "POST" as const }] : [route];
      });
    return {
      name: resource.name,
      object: resource.kind,
      id_field: resource.idField,
      scope_group: resource.scopeGroup,
      routes,
      sortable: resource.sortable,
      filterable: resource.filterable,
      searchable: resource.searchable,
      heavy: resource.heavy,
    };
  }).filter((resource) => resource.routes.length > 0);

  return {
    object: "api",
    api_version: API_VERSION,
    workspace_id: auth.workspaceId,
    key: { key_id: auth.keyId, mode: auth.livemode ? "live" : "test", scopes: auth.scopes },
    resources,
    // Live actions the key's scopes open (every listed scope is needed).
    actions: LIVE_ACTIONS.filter((action) => missingScopes(auth.scopes, action.scopes).length === 0).map((action) => ({
      name: action.name,
      method: action.method,
      path: `${API_BASE_PATH}/actions/${action.name}`,
      scopes: action.scopes,
      credits: action.credits,
      ...(action.credits && { price: action.price }),
      test_mode: action.testMode,
    })),
    limits: REQUEST_LIMITS,
    graphql: "/graphql",
    openapi: `${API_BASE_PATH}/openapi.json`,
  };
}
