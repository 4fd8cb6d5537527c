// Paging of actions that return lists, the same as resources' (docs/lists.md): `limit` 1 to 100
// (default 25) with the resources' own error, an opaque `cursor` from `next_cursor`, newest first;
// `page` where the catalog names it (renders.list, account.credit_history). A cursor is the
// (created time, id) of the last row: stable while rows are inserted.
import { z } from "zod";
import { ApiError } from "../../errors/api-error.js";
import { pageSize } from "../../resources/list.js";

/** The keyset position of a row: rows after it are older, or as old with a smaller id. */
export interface Keyset {
  at: Date;
  id: string;
}

export interface PageRequest {
  limit?: number;
  cursor?: string;
  page?: number;
}

export interface Page<Row> {
  rows: Row[];
  has_more: boolean;
  next_cursor: string | null;
  limit: number;
  page: number | null;
}

const cursorState = z.strictObject({ t: z.iso.datetime(), i: z.string().min(1).max(200) });

function encodeCursor(keyset: Keyset): string {
  return Buffer.from(JSON.stringify({ t: keyset.at.toISOString(), i: keyset.id })).toString("base64url");
}

function decodeCursor(cursor: string): Keyset {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const state = cursorState.safeParse(parsed);
  if (!state.success) throw new ApiError("invalid_request", "The cursor is not one this service issued.", { param: "cursor" });
  return { at: new Date(state.data.t), id: state.data.i };
}

/** Prisma condition for rows after a keyset, newest first by (time column, id column). */
export function afterKeyset(keyset: Keyset | undefined, timeColumn: string, idColumn: string): Record<string, unknown> {
  if (!keyset) return {};
  return { OR: [{ [timeColumn]: { lt: keyset.at } }, { [timeColumn]: keyset.at, [idColumn]: { lt: keyset.id } }] };
}

/**
 * One page: `fetch` reads `take` rows after `after` (cursor paging) or from `skip` (page
 * paging), newest first; one row past the page tells whether there is a next one.
 */
export async function pageOf<Row>(
  request: PageRequest,
  fetch: (window: { after?: Keyset; skip: number; take: number }) => Promise<Row[]>,
  keysetOf: (row: Row) => Keyset,
): Promise<Page<Row>> {
  const limit = pageSize(request.limit);
  if (request.cursor !== undefined && request.page !== undefined) {
    throw new ApiError("invalid_request", "Use either cursor or page, not both.", { param: "page" });
  }
  const after = request.cursor === undefined ? undefined : decodeCursor(request.cursor);
  // Without a cursor a list starts at its first page (page 1 where the catalog names pages).
  const page = request.page ?? (after ? null : 1);
  const rows = await fetch({ after, skip: page && !after ? (page - 1) * limit : 0, take: limit + 1 });
  const has_more = rows.length > limit;
  const pageRows = rows.slice(0, limit);
  const last = pageRows.at(-1);
  return { rows: pageRows, has_more, next_cursor: has_more && last ? encodeCursor(keysetOf(last)) : null, limit, page };
}
