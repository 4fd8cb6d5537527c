// Prisma selections for a resource: the one GraphQL planned (Pothos `query`), widened with the
// columns the service itself needs (ownership, cursor keys), and the full record for events.
import type { ResourceDefinition } from "../registry/resource.js";
import { perResource } from "../registry/per-resource.js";
import { apiFieldName, publicColumns } from "./fields.js";
import { scalarFields } from "../graphql/datamodel.js";

export type PrismaQuery = { select?: Record<string, unknown>; include?: Record<string, unknown>; omit?: Record<string, true> };

const scalarNames = new Map<string, ReadonlySet<string>>();

function scalarNamesOf(model: string): ReadonlySet<string> {
  let names = scalarNames.get(model);
  if (!names) scalarNames.set(model, (names = new Set(scalarFields(model).map((field) => field.name))));
  return names;
}

/**
 * The same rows, in the cheaper of Prisma's two spellings. Prisma serialises, parameterises and
 * prints every key of a `select` on each call (the printed query is its plan cache key), so a
 * select naming 60 columns cost twice the CPU of reading them all. A selection of most of the
 * columns becomes "every column but these" (`omit`, with relations as `include`): the row carries
 * exactly the same columns and relations. `columns` are the ones the service itself needs on top
 * of the selection (withColumns), added without copying a wide select first.
 */
export function compactQuery(model: string, query: PrismaQuery, columns: readonly string[] = []): PrismaQuery {
  if (!query.select) return query;
  const scalars = scalarNamesOf(model);
  const include: Record<string, unknown> = {};
  let selectedScalars = 0;
  const select = query.select;
  for (const key in select) {
    const value = select[key];
    if (!value) continue;
    if (scalars.has(key)) selectedScalars += 1;
    else include[key] = value;
  }
  if ((selectedScalars + columns.length) * 2 < scalars.size) return columns.length > 0 ? withColumns(query, columns) : query;
  const omit: Record<string, true> = {};
  for (const name of scalars) if (!select[name] && !columns.includes(name)) omit[name] = true;
  return {
    ...(Object.keys(include).length > 0 && { include }),
    ...(Object.keys(omit).length > 0 && { omit }),
  };
}

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
