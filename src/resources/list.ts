// List pages (contract 4.2): keyset cursors that stay stable while rows are inserted, offset for
// page-number UIs, sorting on declared fields only, created_after/before and `q` search.
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../contract.js";
import { ApiError } from "../errors/api-error.js";
import type { ResourceDefinition } from "../registry/resource.js";
import type { GraphQLContext } from "../graphql/context.js";
import { columnByName, idColumn } from "./fields.js";
import { delegateFor } from "./delegate.js";
import { compactQuery, type PrismaQuery } from "./selection.js";
import { visibleWhere } from "./visibility.js";
import { isStorableInstant, textProblem } from "../validation/storable.js";
import { validationFailed } from "../validation/issues.js";
import { didYouMean } from "../validation/did-you-mean.js";


/** The list arguments, once: GraphQL declares them from here and REST's grammar checks against them. */
export const LIST_ARGUMENTS = {
  limit: { type: "integer", description: `Page size, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).` },
  cursor: { type: "string", description: "Opaque cursor from next_cursor." },
  offset: { type: "integer", description: "Rows to skip, for page-number interfaces." },
  sort: { type: "string", description: "One of the resource's sortable fields." },
  order: { type: "string", description: "asc or desc (default desc)." },
  include_total: { type: "boolean", description: "Also count every matching row (slower)." },
  created_after: { type: "string", description: "ISO 8601 date or unix seconds." },
  created_before: { type: "string", description: "ISO 8601 date or unix seconds." },
  q: { type: "string", description: "Free-text search over the searchable fields." },
} as const satisfies Record<string, { type: "integer" | "string" | "boolean"; description: string }>;

type ArgValue<T> = T extends "integer" ? number : T extends "boolean" ? boolean : string;

export type ListArgs = { [Name in keyof typeof LIST_ARGUMENTS]?: ArgValue<(typeof LIST_ARGUMENTS)[Name]["type"]> | null };

export interface ListPage<T = Record<string, unknown>> {
  object: "list";
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
  total: number | null;
}

type Order = "asc" | "desc";
type Where = Record<string, unknown>;

interface CursorState {
  /** sort field */
  s: string;
  o: Order;
  /** sort value of the last row (ISO string for dates) */
  v: string | number | boolean | null;
  /** id of the last row */
  i: string;
}

function invalid(param: string, message: string, details?: Record<string, unknown>): ApiError {
  return new ApiError("invalid_request", message, { param, details });
}

function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify(state)).toString("base64url");
}

function notIssued(): ApiError {
  return invalid("cursor", "The cursor is not one this service issued.");
}

/** Is `value` a sort value this column could have produced (the type it serialises to, storable)? */
function sortValueFits(resource: ResourceDefinition, sort: string, value: unknown): boolean {
  const column = columnByName(resource, sort);
  if (value === null) return sort !== idColumn(resource) && !column?.isRequired;
  switch (column?.type) {
    case "DateTime":
      return typeof value === "string" && isStorableInstant(new Date(value));
    case "Int":
      return typeof value === "number" && Number.isInteger(value) && Math.abs(value) <= 2_147_483_647;
    case "Float":
      return typeof value === "number" && Number.isFinite(value);
    case "Boolean":
      return typeof value === "boolean";
    default:
      return typeof value === "string" && textProblem(value) === undefined;
  }
}

/**
 * A cursor is client input like any other: it is checked to be what this service issues (its
 * sort value typed as the sort column, its id storable text) before any of it reaches a query.
 */
function decodeCursor(resource: ResourceDefinition, cursor: string, sort: string, order: Order): CursorState {
  let state: CursorState;
  try {
    state = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as CursorState;
  } catch {
    throw notIssued();
  }
  if (!state || typeof state !== "object" || typeof state.i !== "string" || typeof state.s !== "string" || textProblem(state.i) !== undefined) {
    throw notIssued();
  }
  if (state.s !== sort || state.o !== order) {
    throw invalid("cursor", "The cursor was issued for another sort or order; repeat the same sort and order while paging.");
  }
  if (!sortValueFits(resource, sort, state.v)) throw notIssued();
  return state;
}

/** Parses an ISO 8601 date or unix seconds, within the years 1 to 9999 (what PostgreSQL stores). */
export function parseInstant(value: string, param: string): Date {
  const trimmed = value.trim();
  const date = /^\d+(\.\d+)?$/.test(trimmed) ? new Date(Number(trimmed) * 1000) : new Date(trimmed);
  if (Number.isNaN(date.getTime()) || trimmed === "") {
    throw invalid(param, `'${value}' is neither an ISO 8601 date nor a unix timestamp.`);
  }
  if (!isStorableInstant(date)) throw invalid(param, `'${value}' is outside the years 1 to 9999.`);
  return date;
}

function sortValue(resource: ResourceDefinition, sort: string, raw: CursorState["v"]): unknown {
  if (raw === null) return null;
  const column = columnByName(resource, sort);
  if (column?.type === "DateTime") return new Date(String(raw));
  return raw;
}

function serialiseSortValue(value: unknown): CursorState["v"] {
  if (value instanceof Date) return value.toISOString();
  if (value === null || value === undefined) return null;
  return value as string | number | boolean;
}

/**
 * Keyset condition for the rows after the cursor row, in (sort, id) order with nulls last.
 */
function afterCursor(resource: ResourceDefinition, state: CursorState): Where {
  const id = idColumn(resource);
  const beyond = state.o === "desc" ? "lt" : "gt";
  const value = sortValue(resource, state.s, state.v);
  if (state.s === id) return { [id]: { [beyond]: state.i } };
  if (value === null) return { AND: [{ [state.s]: null }, { [id]: { [beyond]: state.i } }] };
  const nullable = !columnByName(resource, state.s)?.isRequired;
  const after: Where = {
    OR: [
      { [state.s]: { [beyond]: value } },
      { AND: [{ [state.s]: value }, { [id]: { [beyond]: state.i } }] },
      // Nulls sort last, so they all come after any row that has a value.
      ...(nullable ? [{ [state.s]: null }] : []),
    ],
  };
  if (nullable) return after;
  // The same rows, with a bound PostgreSQL can start an index range at ((workspace, sort, id)
  // indexes): without it, the OR is a filter over every row before the cursor, and a deep page
  // costs as much as the pages before it.
  return { AND: [{ [state.s]: { [state.o === "desc" ? "lte" : "gte"]: value } }, after] };
}

/** The page-size rule, in one wording for every list on both surfaces, resources and actions (contract 8). */
export const LIMIT_RULE = `limit must be an integer from 1 to ${MAX_PAGE_SIZE}.`;
export const OFFSET_RULE = "offset must be a non-negative integer.";

/**
 * A list argument out of its rule (limit, offset, sort, order, include_total): 422
 * validation_failed like a bad field of a body (contract 4.2), the path naming the
 * parameter; `allowed` and `did_you_mean` where the values are a closed set.
 */
export function badListArgument(param: string, message: string, type: string, allowed?: readonly string[], given?: string): ApiError {
  const suggestion = allowed && given !== undefined ? didYouMean(given, allowed) : undefined;
  return validationFailed([{ path: param, message, type, ...(allowed && { allowed: [...allowed] }), ...(suggestion && { did_you_mean: suggestion }) }], message);
}

/** The page size a list asks for. */
export function pageSize(limit: unknown): number {
  if (limit === null || limit === undefined) return DEFAULT_PAGE_SIZE;
  if (typeof limit !== "number" || !Number.isInteger(limit)) throw badListArgument("limit", LIMIT_RULE, "number.base");
  if (limit < 1) throw badListArgument("limit", LIMIT_RULE, "number.min");
  if (limit > MAX_PAGE_SIZE) throw badListArgument("limit", LIMIT_RULE, "number.max");
  return limit;
}

function sortField(resource: ResourceDefinition, sort: string | null | undefined): string {
  if (!sort) return resource.createdAtField;
  if (!resource.sortable.includes(sort)) {
    throw badListArgument("sort", `Cannot sort ${resource.name} by '${sort}'.`, "any.only", resource.sortable, sort);
  }
  return sort;
}

export const ORDERS = ["asc", "desc"] as const;

function sortOrder(order: string | null | undefined): Order {
  if (!order) return "desc";
  if (order !== "asc" && order !== "desc") throw badListArgument("order", "order must be 'asc' or 'desc'.", "any.only", ORDERS, order);
  return order;
}

/** Prisma passes `contains`/`startsWith` to LIKE unescaped: `%`, `_` and `\\` must match themselves. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Conditions shared by the page and its total: workspace, time window, search, filters. */
function listWhere(resource: ResourceDefinition, workspaceId: string, args: ListArgs, filters: Where[] = []): Where {
  const and: Where[] = [visibleWhere(resource, workspaceId), ...filters];
  const created = resource.createdAtField;
  if (args.created_after) and.push({ [created]: { gt: parseInstant(args.created_after, "created_after") } });
  if (args.created_before) and.push({ [created]: { lt: parseInstant(args.created_before, "created_before") } });
  if (args.q) {
    if (resource.searchable.length === 0) throw invalid("q", `${resource.name} cannot be searched.`);
    const text = escapeLike(args.q);
    and.push({ OR: resource.searchable.map((field) => ({ [field]: { contains: text, mode: "insensitive" } })) });
  }
  return { AND: and };
}

export async function listRecords(
  context: GraphQLContext,
  resource: ResourceDefinition,
  args: ListArgs,
  query: PrismaQuery,
  filters: Where[] = [],
): Promise<ListPage> {
  const take = pageSize(args.limit);
  const sort = sortField(resource, args.sort);
  const order = sortOrder(args.order);
  const id = idColumn(resource);
  if (args.cursor && args.offset) throw invalid("offset", "Use either cursor or offset, not both.");
  if (args.offset !== null && args.offset !== undefined && (!Number.isInteger(args.offset) || args.offset < 0)) {
    throw badListArgument("offset", OFFSET_RULE, Number.isInteger(args.offset) ? "number.min" : "number.base");
  }

  const where = listWhere(resource, context.auth.workspaceId, args, filters);
  const pageWhere = args.cursor ? { AND: [where, afterCursor(resource, decodeCursor(resource, args.cursor, sort, order))] } : where;
  const orderBy = pageOrder(resource, sort, order);

  const delegate = delegateFor(context.prisma, resource.model);
  const [rows, total] = await Promise.all([
    delegate.findMany({
      ...compactQuery(resource.model, query, [id, sort]),
      where: pageWhere,
      orderBy,
      take: take + 1,
      ...(args.offset ? { skip: args.offset } : {}),
    }),
    args.include_total ? delegate.count({ where }) : Promise.resolve(null),
  ]);

  return { ...pageOf(resource, rows, take, sort, order), total };
}

/** (sort, id) order with nulls last: the order keyset cursors walk. */
function pageOrder(resource: ResourceDefinition, sort: string, order: Order): Record<string, unknown>[] {
  const id = idColumn(resource);
  if (sort === id) return [{ [id]: order }];
  return [{ [sort]: columnByName(resource, sort)?.isRequired ? order : { sort: order, nulls: "last" } }, { [id]: order }];
}

/** A page from rows read with take + 1: the extra row only says there is more. */
function pageOf(resource: ResourceDefinition, rows: Record<string, unknown>[], take: number, sort: string, order: Order): Omit<ListPage, "total"> {
  const id = idColumn(resource);
  const hasMore = rows.length > take;
  const data = hasMore ? rows.slice(0, take) : rows;
  const last = data[data.length - 1];
  return {
    object: "list",
    data,
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeCursor({ s: sort, o: order, v: serialiseSortValue(last[sort]), i: String(last[id]) }) : null,
  };
}

/** Arguments of a list nested under a record (Video.renders): newest first unless order=asc. */
export interface RelationPageArgs {
  limit?: number | null;
  cursor?: string | null;
  order?: string | null;
}

/**
 * The Prisma arguments for one page of a resource's records under a parent, loaded with the
 * parent's own query: conditions (visibility and the cursor), order, take, and the columns a
 * cursor needs. Sorted by creation time, as lists are by default.
 */
export function relationPageQuery(resource: ResourceDefinition, workspaceId: string, args: RelationPageArgs) {
  const take = pageSize(args.limit);
  const order = sortOrder(args.order);
  const sort = resource.createdAtField;
  const where: Where[] = [visibleWhere(resource, workspaceId)];
  if (args.cursor) where.push(afterCursor(resource, decodeCursor(resource, args.cursor, sort, order)));
  return { where: { AND: where }, orderBy: pageOrder(resource, sort, order), take: take + 1, columns: [idColumn(resource), sort] };
}

/** The page of a relation loaded with relationPageQuery. */
export function relationPage(resource: ResourceDefinition, rows: Record<string, unknown>[], args: RelationPageArgs): ListPage {
  return { ...pageOf(resource, rows, pageSize(args.limit), resource.createdAtField, sortOrder(args.order)), total: null };
}
