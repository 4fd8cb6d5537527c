// POST /{resource}/bulk: each item runs its own route's operation and counts as a request.
import type { GraphQLContext } from "../../src/graphql/context.js";
import type { ResourceDefinition } from "../../src/registry/resource.js";
import { chargeWeight } from "../../src/guards/weights.js";
import { errorResponse, jsonResponse, methodNotAllowed, withEnvelope } from "../../src/web/responses.js";
import type { Response } from "../../src/response.js";
import { readJsonBody } from "../body.js";
import { runBulk } from "../bulk.js";
import { allowHeader, matchRoute } from "../routes.js";
import { API_BASE_PATH } from "../sofa.js";
import { fullRecordSelection } from "../selection.js";
import { assertOnlyParams } from "../list-query.js";
import { isRecordBody, logRoute, notAnObject, type CallOperation } from "./shared.js";

export async function handleBulk(call: CallOperation, request: Request, url: URL, resource: ResourceDefinition, context: GraphQLContext): Promise<Response> {
  logRoute(`/${resource.name}/bulk`);
  assertOnlyParams(url.searchParams, []);
  // Every item counts against the rate windows, like a request of its own.
  const result = await runBulk(resource, context.auth, await readJsonBody(request), chargeWeight, async (method, path, body) => {
    const target = new URL(`${API_BASE_PATH}${path}`, url);
    const route = matchRoute(path);
    const item = route?.targets.get(method);
    // An item the resource does not offer (an update of an asset) fails on its own, as its
    // route would.
    if (!route || item?.kind !== "resource") return errorResponse(methodNotAllowed(method, `${API_BASE_PATH}${path}`, route ? allowHeader(route) : ""));
    const operation = item.operation;
    // A bulk item is a body of its own: anything but an object is that item's 422.
    if (body !== undefined && !isRecordBody(body)) return errorResponse(notAnObject());
    const answer = await call(context, operation, target, fullRecordSelection(resource), body === undefined ? undefined : { input: body });
    return answer.ok ? jsonResponse(answer.data, answer.status) : answer.response;
  });
  return jsonResponse(withEnvelope(result.body), result.status);
}
