// Prisma selections for a resource: the one GraphQL planned (Pothos `query`), widened with the
// columns the service itself needs (ownership, cursor keys), and the full record for events.
import type { ResourceDefinition } from "../registry/resource.js";
import { perResource } from "../registry/per-resource.js";
import { apiFieldName, publicColumns } from "./fields.js";

export type PrismaQuery = { select?: Record<string, unknown>; include?: Record<string, unknown> };

export function withColumns(query: PrismaQuery, columns: readonly string[]): PrismaQuery {
  if (query.select) {
    const select = { ...query.select };
    for (const column of columns) select[column] = true;
    return { select };
  }
  // An include (or no planned query) already loads every column.
  return query;
}

/** Selects everything the API can show about a record. */
export const fullSelection = perResource((resource): Readonly<Record<string, unknown>> => {
  const select: Record<string, unknown> = {};
  for (const column of publicColumns(resource)) select[column.name] = true;
  for (const field of Object.values(resource.virtualFields ?? {})) Object.assign(select, field.select);
  return select;
});

/** The record as the API shows it: public columns and resolved virtual fields. */
export function presentRecord(resource: ResourceDefinition, row: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = { object: resource.kind };
  for (const column of publicColumns(resource)) {
    const value = row[column.name];
    record[apiFieldName(resource, column.name)] = value instanceof Date ? value.toISOString() : value;
  }
  for (const [name, field] of Object.entries(resource.virtualFields ?? {})) record[name] = field.resolve(row);
  return record;
}
