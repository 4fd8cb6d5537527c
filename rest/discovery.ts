// GET /api/v1: what the calling key can do — its workspace and scopes, the routes its scopes open
// (resources and actions, from the one walk of served operations), whether each action's provider
// capabilities have a model on this deployment, and the limits that apply (docs/discovery.md).
import { API_VERSION } from "../src/config.js";
import type { AuthContext } from "../src/context/auth-context.js";
import { missingScopes } from "../src/auth/scopes.js";
import { actionByName } from "../src/actions/catalog.js";
import { servedOperations } from "../src/resources/served.js";
import type { ProviderRegistry } from "../src/providers/registry.js";
import { REQUEST_LIMITS } from "../src/contract.js";
import { API_BASE_PATH } from "./sofa.js";
import { openApiPath } from "../src/registry/operations.js";
import { fontListing } from "../src/media/fonts/catalog.js";

function restPath(path: string): string {
  return `${API_BASE_PATH}${openApiPath(path)}`;
}

/** Whether every capability an action uses has a model here, and what to set otherwise. */
function availability(uses: readonly string[], providers: ProviderRegistry) {
  const missing = uses.filter((capability) => !providers.model(capability as never));
  return { available: missing.length === 0, ...(missing.length > 0 && { unavailable_capabilities: missing }) };
}

export function describeKeyAccess(auth: AuthContext, providers: ProviderRegistry) {
  const served = servedOperations().filter((operation) => missingScopes(auth.scopes, operation.scopes).length === 0);
  const resources = new Map<string, { name: string; object: string; id_field: string; scope_group: string; routes: { method: string; path: string; scope: string }[]; sortable: readonly string[]; filterable: readonly string[]; searchable: readonly string[]; heavy: readonly string[] }>();
  const actions: Record<string, unknown>[] = [];
  for (const operation of served) {
    if (operation.kind === "resource") {
      const { resource } = operation;
      const entry = resources.get(resource.name) ?? {
        name: resource.name,
        object: resource.kind,
        id_field: resource.idField,
        scope_group: resource.scopeGroup,
        routes: [],
        sortable: resource.sortable,
        filterable: resource.filterable,
        searchable: resource.searchable,
        heavy: resource.heavy,
      };
      const route = { method: operation.method, path: restPath(operation.path), scope: operation.scopes[0]! };
      entry.routes.push(route);
      if (operation.operation.route === "update" && resource.postAlias) entry.routes.push({ ...route, method: "POST" });
      resources.set(resource.name, entry);
      continue;
    }
    const action = operation.tag === "actions" ? actionByName(operation.path.slice("/actions/".length)) : undefined;
    if (!action) continue;
    actions.push({
      name: action.name,
      method: action.method,
      path: `${API_BASE_PATH}/actions/${action.name}`,
      scopes: action.scopes,
      credits: action.credits,
      ...(action.credits && { price: action.price }),
      test_mode: action.testMode,
      ...(action.uses && { capabilities: action.uses, ...availability(action.uses, providers) }),
    });
  }

  return {
    object: "api",
    api_version: API_VERSION,
    workspace_id: auth.workspaceId,
    key: { key_id: auth.keyId, mode: auth.livemode ? "live" : "test", scopes: auth.scopes },
    resources: [...resources.values()],
    actions,
    // Which provider capabilities this deployment can run, and what an operator sets otherwise.
    capabilities: providers.availability(),
    // The models usable here with their price per unit (what a `model` input may name).
    models: providers.catalog(),
    limits: REQUEST_LIMITS,
    // Font families text layers and captions may name (`font`), from this machine's font packages.
    fonts: fontListing(),
    graphql: "/graphql",
    openapi: `${API_BASE_PATH}/openapi.json`,
  };
}
