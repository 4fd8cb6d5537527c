// Which of a resource's fields the API shows, accepts and ignores, derived from the Prisma model
// and the resource declaration.
import type { ModelField } from "../graphql/datamodel.js";
import { scalarFields } from "../graphql/datamodel.js";
import type { ResourceDefinition } from "../registry/resource.js";
import { perResource } from "../registry/per-resource.js";

/** The GraphQL type name of a resource's records (and the stem of its list, input and filter types). */
export function typeNameOf(resource: ResourceDefinition): string {
  return resource.typeName ?? resource.model;
}

/** The Prisma field holding the record's id. */
export function idColumn(resource: Pick<ResourceDefinition, "idColumn" | "idField">): string {
  return resource.idColumn ?? resource.idField;
}

/** The API's name for a column: the id column under the resource's id field, aliases under theirs. */
export function apiFieldName(resource: ResourceDefinition, column: string): string {
  if (column === idColumn(resource)) return resource.idField;
  return resource.fieldAliases?.[column] ?? column;
}

/** Aliased columns are display-only: a declaration that sorts, filters or writes one is a mistake. */
export function assertAliasesDisplayOnly(resource: ResourceDefinition): void {
  for (const column of Object.keys(resource.fieldAliases ?? {})) {
    const writes = resource.routes.includes("create") || resource.routes.includes("update");
    const misuse = resource.sortable.includes(column) || resource.filterable.includes(column) || (writes && writableColumns(resource).some((field) => field.name === column));
    if (misuse) throw new Error(`${resource.name}.${column} has an alias but is sorted, filtered or written`);
  }
}

/** Columns shown in the API, in model order (internal columns left out). */
export const publicColumns = perResource((resource): readonly ModelField[] =>
  scalarFields(resource.model).filter((field) => !resource.internal.includes(field.name)),
);

/** Every field name a client can read: public columns and virtual fields. */
export const readableFieldNames = perResource((resource): readonly string[] => [
  ...publicColumns(resource).map((field) => apiFieldName(resource, field.name)),
  ...Object.keys(resource.virtualFields ?? {}),
]);

/** Fields set by the service: silently ignored when sent (contract 2.1.2). */
export const ignoredInputFields = perResource((resource): ReadonlySet<string> => {
  const ignored = new Set<string>([resource.idField, idColumn(resource), ...resource.internal, ...resource.serviceSet]);
  for (const field of scalarFields(resource.model)) if (field.isUpdatedAt) ignored.add(field.name);
  return ignored;
});

/** Columns a client may write. */
export const writableColumns = perResource((resource): readonly ModelField[] => {
  const ignored = ignoredInputFields(resource);
  return scalarFields(resource.model).filter((field) => !ignored.has(field.name));
});

export function writableVirtualFields(resource: ResourceDefinition): string[] {
  return Object.entries(resource.virtualFields ?? {})
    .filter(([, field]) => field.input && field.write !== undefined)
    .map(([name]) => name);
}

const columnsByName = perResource((resource) => new Map(scalarFields(resource.model).map((field) => [field.name, field])));

export function columnByName(resource: ResourceDefinition, name: string): ModelField | undefined {
  return columnsByName(resource).get(name);
}
