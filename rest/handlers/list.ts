// GET of a resource list: the JSON page, or an export (csv, ndjson) walked page by page.
import type { GraphQLContext } from "../../src/graphql/context.js";
import type { ResourceDefinition } from "../../src/registry/resource.js";
import { chargeWeight, EXPORT_WEIGHT } from "../../src/guards/weights.js";
import type { Response } from "../../src/response.js";
import type { OperationTarget } from "../sofa.js";
import { parseSelection, selectedColumns } from "../selection.js";
import { outputFormatParam, parseListQuery } from "../list-query.js";
import { negotiateFormat, streamExport, type ListPageBody } from "../formats.js";
import { envelope, type CallOperation } from "./shared.js";

export async function handleList(
  call: CallOperation,
  request: Request,
  url: URL,
  resource: ResourceDefinition,
  operation: OperationTarget,
  context: GraphQLContext,
): Promise<Response> {
  const format = negotiateFormat(outputFormatParam(resource, url.searchParams), request.headers.get("accept"));
  const list = parseListQuery(resource, url.searchParams, { exporting: format !== "json" });
  const selection = parseSelection(resource, url.searchParams, true);
  const pageUrl = (overrides: Record<string, string | undefined>) => {
    const pageArgs = new URLSearchParams(list.arguments);
    for (const [name, value] of Object.entries(overrides)) {
      if (value === undefined) pageArgs.delete(name);
      else pageArgs.set(name, value);
    }
    if (list.filter) pageArgs.set("filter", JSON.stringify(list.filter));
    return new URL(`${url.pathname}?${pageArgs}`, url);
  };

  if (format === "json") {
    return envelope(await call(context, operation, pageUrl({}), selection), request.method === "HEAD");
  }

  // Exports: `limit` caps the total (no page-size cap); pages of 100 are walked by cursor.
  await chargeWeight(EXPORT_WEIGHT);
  const max = list.arguments.has("limit") ? Number(list.arguments.get("limit")) : undefined;
  let first = true;
  const fetchPage = async (cursor: string | undefined, pageSize: number): Promise<ListPageBody> => {
    const overrides = first ? { limit: String(pageSize) } : { limit: String(pageSize), cursor, offset: undefined };
    first = false;
    const answer = await call(context, operation, pageUrl(overrides), selection);
    if (!answer.ok) throw Object.assign(new Error("export page failed"), { response: answer.response });
    // The exporters write values as the JSON page shows them (dates as ISO strings).
    return JSON.parse(JSON.stringify(answer.data)) as ListPageBody;
  };
  try {
    return await streamExport(format, fetchPage, { columns: selectedColumns(resource, selection), max, filename: resource.name });
  } catch (error) {
    const failed = (error as { response?: Response }).response;
    if (failed) return failed;
    throw error;
  }
}
