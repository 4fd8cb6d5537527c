// The resources the API serves, as the composition root hands them over: every declaration
// (`export const … = defineResource(…)` in a domain folder) is listed in
// src/platform/resources.generated.ts by `npm run generate`, and src/platform/catalogs.ts
// installs the list here once, at start-up. The generic layers (resources, REST, GraphQL) read it
// from here and never import a domain.
import type { ResourceDefinition } from "./resource.js";

/**
 * The order resources are served in (GraphQL types, REST routes, OpenAPI): contract table 2.2,
 * then the platform's own. A resource not named here comes after them, by name.
 */
const SERVED_ORDER = [
  "videos", "scripts", "folders", "assets", "characters", "agents", "flows", "slideshows", "templates", "video_styles",
  "smart_group_configs", "custom_video_types", "generations", "music", "scheduled_posts", "social_accounts", "renders",
  "backgrounds", "voices", "character_tags", "agent_executions", "flow_executions", "credit_transactions",
  "playground_generations",
  "logs", "api_keys", "webhooks", "webhook_deliveries", "events",
];

interface Installed {
  served: readonly ResourceDefinition[];
  byName: ReadonlyMap<string, ResourceDefinition>;
}

let installed: Installed | undefined;

function rank(resource: ResourceDefinition): number {
  const index = SERVED_ORDER.indexOf(resource.name);
  return index === -1 ? SERVED_ORDER.length : index;
}

/**
 * Takes every resource declaration (the composition root's generated list) and keeps them for the
 * process. Installing the same list again is a no-op; another list is refused.
 */
export function installResources(list: readonly ResourceDefinition[]): void {
  const served = Object.freeze([...list].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name)));
  if (installed) {
    if (installed.served.length === served.length && served.every((resource, index) => installed!.served[index] === resource)) return;
    throw new Error("The resource catalog is already installed with another list.");
  }
  const byName = new Map<string, ResourceDefinition>();
  for (const resource of served) {
    if (byName.has(resource.name)) throw new Error(`Resource ${resource.name} is declared twice.`);
    byName.set(resource.name, resource);
  }
  for (const resource of served) {
    for (const [column, reference] of Object.entries(resource.references ?? {})) {
      if (!byName.has(reference.resource)) throw new Error(`${resource.name}.${column} references unknown resource ${reference.resource}`);
    }
    for (const [field, child] of Object.entries(resource.children ?? {})) {
      if (!byName.has(child.resource)) throw new Error(`${resource.name}.${field} lists unknown resource ${child.resource}`);
    }
  }
  installed = { served, byName };
}

function catalog(): Installed {
  if (!installed) throw new Error("The resource catalog is not installed: import src/platform/catalogs.ts (the composition root) first.");
  return installed;
}

/** Everything served: GraphQL types and fields, REST routes, OpenAPI, discovery. */
export function servedResources(): readonly ResourceDefinition[] {
  return catalog().served;
}

/** The resources of contract table 2.2 (not the platform's own: request log, API keys, webhooks, events). */
export function contractResources(): readonly ResourceDefinition[] {
  return catalog().served.filter((resource) => !resource.platform);
}

export function resourceByName(name: string): ResourceDefinition | undefined {
  return catalog().byName.get(name);
}
