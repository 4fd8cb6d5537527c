// Facts derived from a resource declaration (its public columns, filterable fields, field order…)
// never change once the registry is loaded, so each is computed once per resource rather than on
// every request or row.
import type { ResourceDefinition } from "./resource.js";

export function perResource<T>(derive: (resource: ResourceDefinition) => T): (resource: ResourceDefinition) => T {
  const cache = new WeakMap<ResourceDefinition, T>();
  return (resource) => {
    if (!cache.has(resource)) cache.set(resource, derive(resource));
    return cache.get(resource)!;
  };
}
