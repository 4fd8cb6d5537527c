// List formats (contract 4.2): json pages, or ndjson / csv exports that stream every matching
// record. Exports walk the same list resolver page by page (through Sofa), so filters, scopes and
// field selection are exactly those of a json page, and memory stays flat however many rows.
import { stringify } from "csv-stringify/sync";
import { ApiError } from "../src/errors/api-error.js";
import { MAX_PAGE_SIZE } from "../src/contract.js";

export type ListFormat = "json" | "ndjson" | "csv";

const MEDIA_TYPES: Record<string, ListFormat> = {
  "application/json": "json",
  "application/x-ndjson": "ndjson",
  "application/ndjson": "ndjson",
  "text/csv": "csv",
};

function unsupported(requested: string, param?: string): ApiError {
  return new ApiError("unsupported_format", `Format '${requested}' is not offered; use json, ndjson or csv.`, {
    param,
    details: { allowed: ["json", "ndjson", "csv"] },
  });
}

/** `format` wins over `Accept`; with neither, json. */
export function negotiateFormat(format: string | null, accept: string | null): ListFormat {
  if (format !== null) {
    if (format === "json" || format === "ndjson" || format === "csv") return format;
    throw unsupported(format, "format");
  }
  if (!accept) return "json";
  // Highest q first; q=0 means "not acceptable".
  const ranges = accept
    .split(",")
    .map((part, index) => {
      const [type, ...params] = part.split(";").map((piece) => piece.trim().toLowerCase());
      const q = Number(params.find((param) => param.startsWith("q="))?.slice(2) ?? "1");
      return { type: type ?? "", q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((range) => range.type && range.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((range) => range.type);
  for (const range of ranges) {
    if (MEDIA_TYPES[range]) return MEDIA_TYPES[range];
    if (range === "*/*" || range === "application/*") return "json";
  }
  throw unsupported(accept);
}

export interface ListPageBody {
  data: Record<string, unknown>[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Fetches one page at a cursor (undefined for the first) with the given page size. */
export type PageFetcher = (cursor: string | undefined, pageSize: number) => Promise<ListPageBody>;

function csvCell(value: unknown): unknown {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return value;
}

/**
 * Streams every record (or at most `max`) as ndjson lines or csv rows. The first page is fetched
 * before the response starts, so a bad request still gets a proper error status.
 */
export async function streamExport(
  format: Exclude<ListFormat, "json">,
  fetchPage: PageFetcher,
  options: { columns: string[]; max?: number; filename: string },
): Promise<Response> {
  let remaining = options.max ?? Number.POSITIVE_INFINITY;
  const size = () => Math.min(MAX_PAGE_SIZE, remaining);
  let page: ListPageBody | undefined = await fetchPage(undefined, size());
  let headerWritten = false;
  const encoder = new TextEncoder();

  const render = (rows: Record<string, unknown>[]): string => {
    if (format === "ndjson") return rows.map((row) => `${JSON.stringify(row)}\n`).join("");
    const lines = rows.map((row) => options.columns.map((column) => csvCell(row[column])));
    const withHeader = headerWritten ? lines : [options.columns, ...lines];
    headerWritten = true;
    return withHeader.length ? stringify(withHeader, { cast: { boolean: (value) => String(value) } }) : "";
  };

  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!page) {
        controller.close();
        return;
      }
      const rows = page.data.slice(0, Number.isFinite(remaining) ? remaining : undefined);
      remaining -= rows.length;
      const chunk = render(rows);
      if (chunk) controller.enqueue(encoder.encode(chunk));
      else if (format === "csv" && !headerWritten) controller.enqueue(encoder.encode(render([])));
      page = page.has_more && page.next_cursor && remaining > 0 ? await fetchPage(page.next_cursor, size()) : undefined;
    },
  });
  const type = format === "ndjson" ? "application/x-ndjson; charset=utf-8" : "text/csv; charset=utf-8";
  return new Response(stream, {
    status: 200,
    headers: {
      "content-type": type,
      ...(format === "csv" && { "content-disposition": `attachment; filename="${options.filename}.csv"` }),
    },
  });
}
