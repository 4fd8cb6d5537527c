// What /graphql accepts over HTTP, checked before graphql-yoga reads the request so that every
// refusal is the contract's envelope with its own status and our own words (yoga answers a POST
// without a query with 200 "Must provide query string." and a text/plain body with an empty 415).
import { ApiError } from "../errors/api-error.js";
import { assertJsonContentType } from "../web/media-type.js";
import { methodNotAllowed } from "../web/responses.js";

const GRAPHQL_PATH = "/graphql";

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function missingQuery(where: string): ApiError {
  return new ApiError("invalid_request", `No GraphQL document: send it as a string in ${where}.`, {
    param: "query",
    hint: 'POST {"query": "{ videos { data { video_id } } }"} with Content-Type: application/json, or GET /graphql?query=…',
  });
}

/** The body of a POST, as checked here: yoga takes it as is rather than reading and parsing it again. */
export interface GraphQLBody {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
  extensions?: Record<string, unknown>;
}

export async function assertGraphQLHttpRequest(request: Request, url: URL): Promise<GraphQLBody | undefined> {
  if (request.method === "GET") {
    if (!url.searchParams.get("query")?.trim()) throw missingQuery("the query parameter `query`");
    return undefined;
  }
  if (request.method !== "POST") throw methodNotAllowed(request.method, GRAPHQL_PATH, "GET, POST");
  assertJsonContentType(request.headers);
  // The body was buffered within its cap (src/web/request-body.ts); it is read once, here.
  const text = await request.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new ApiError("invalid_json", `The body is not valid JSON: ${(error as Error).message}`, {
      hint: 'Send a JSON object such as {"query": "{ videos { data { video_id } } }"}.',
    });
  }
  if (!isObject(body)) {
    throw new ApiError("invalid_request", "The body must be one JSON object with `query` (and optionally `variables` and `operationName`); lists of operations are not accepted.");
  }
  if (typeof body.query !== "string" || body.query.trim() === "") throw missingQuery("the body's `query`");
  if (body.variables !== undefined && body.variables !== null && !isObject(body.variables)) {
    throw new ApiError("invalid_request", "`variables` must be a JSON object of variable values.", { param: "variables" });
  }
  if (body.operationName !== undefined && body.operationName !== null && typeof body.operationName !== "string") {
    throw new ApiError("invalid_request", "`operationName` must be the name of an operation in the document.", { param: "operationName" });
  }
  return body as unknown as GraphQLBody;
}
