// A matched route: the verb picks the operation (or a 405); resource reads and writes run here,
// lists and platform operations in their own modules.
import type { GraphQLContext } from "../../src/graphql/context.js";
import { openApiPath } from "../../src/registry/operations.js";
import { methodNotAllowed } from "../../src/web/responses.js";
import type { Response } from "../../src/response.js";
import { allowHeader, type MatchedRoute } from "../routes.js";
import { API_BASE_PATH } from "../sofa.js";
import { fullRecordSelection, parseSelection } from "../selection.js";
import { assertOnlyParams } from "../list-query.js";
import { handleList } from "./list.js";
import { handlePlatform } from "./platform.js";
import { envelope, logRoute, readRecordBody, type CallOperation } from "./shared.js";

export async function handleRoute(call: CallOperation, request: Request, url: URL, path: string, route: MatchedRoute, context: GraphQLContext): Promise<Response> {
  const method = request.method === "HEAD" ? "GET" : request.method;
  const target = route.targets.get(method);
  if (!target) throw methodNotAllowed(request.method, `${API_BASE_PATH}${path}`, allowHeader(route));
  logRoute(openApiPath(target.operation.path));
  if (target.kind === "platform") return handlePlatform(call, request, url, target.operation, context);

  const { resource, operation } = target;
  if (operation.route === "list") return handleList(call, request, url, resource, operation, context);
  const sofaUrl = new URL(url.pathname, url);
  if (operation.rootType === "Query") {
    assertOnlyParams(url.searchParams, ["fields"]);
    const selection = parseSelection(resource, url.searchParams, false);
    return envelope(await call(context, operation, sofaUrl, selection), request.method === "HEAD");
  }
  // Create and update answer the whole record unless `fields` narrows it (read before the write,
  // so an unknown field changes nothing); a deletion confirmation has nothing to narrow.
  const writesRecord = operation.route !== "delete";
  assertOnlyParams(url.searchParams, writesRecord ? ["fields"] : []);
  const selection = writesRecord ? parseSelection(resource, url.searchParams, false) : fullRecordSelection(resource);
  // REST sends the record itself; the GraphQL field takes it as `input`. The POST alias is
  // served by the PATCH operation.
  const body = writesRecord ? { input: await readRecordBody(request) } : undefined;
  return envelope(await call(context, operation, sofaUrl, selection, body), false);
}
