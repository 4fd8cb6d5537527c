// How a failure becomes an answer: the contract's envelope on REST, the envelope plus a
// GraphQL-shaped `errors` list on /graphql, nothing at all for a client that hung up.
import { ApiError } from "../errors/api-error.js";
import { toApiError, errorEnvelope } from "../errors/envelope.js";
import { ERROR_CODES, isErrorCode } from "../errors/codes.js";
import { currentRequestContext } from "../context/request-context.js";
import { REFUSAL_STATUSES } from "../guards/idempotency.js";
import { errorResponse, jsonResponse } from "../web/responses.js";
import { logger } from "../logger.js";
import { Response } from "../response.js";

/** GraphQL clients get the envelope and a GraphQL-shaped `errors` list in one body. */
export function graphqlErrorResponse(error: ApiError): Response {
  const body = errorEnvelope(error);
  return jsonResponse({ ...body, errors: [{ message: body.error.message, extensions: body.error }] }, error.status, error.headers);
}

/**
 * graphql-yoga answers a few refusals with a bare status and no body (406 for an Accept it cannot
 * serve, 415 for a body type it cannot read): they get the envelope like every other failure.
 */
export async function withGraphQLEnvelope(response: Response): Promise<Response> {
  const contentType = response.headers.get("content-type") ?? "";
  if (response.status < 400 || contentType.includes("json")) return response;
  // A subscription refused before it began (a field that does not exist, say) comes as one SSE
  // message holding the errors: the client gets them, not "cannot be read".
  if (contentType.includes("text/event-stream")) {
    const refused = refusalInEventStream(await response.text());
    if (refused) return jsonResponse(refused, refused.error.status);
  }
  const error =
    response.status === 406
      ? new ApiError("unsupported_format", "GraphQL answers application/graphql-response+json, application/json, multipart/mixed or text/event-stream.", {
          headers: { Accept: response.headers.get("accept") ?? "application/json" },
        })
      : response.status === 415
        ? new ApiError("unsupported_media_type", "Send the GraphQL request as JSON with Content-Type: application/json.")
        : new ApiError("invalid_request", `The GraphQL request cannot be read (${response.status}); send a JSON body with Content-Type: application/json.`);
  return graphqlErrorResponse(error);
}

interface FormattedError {
  message: string;
  extensions?: Record<string, unknown> & { status?: unknown; code?: unknown };
}

/** The envelope and errors of the first SSE message that carries formatted errors. */
function refusalInEventStream(text: string): { error: Record<string, unknown> & { status: number }; errors: FormattedError[] } | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith("data:")) continue;
    try {
      const errors = (JSON.parse(line.slice(5)) as { errors?: FormattedError[] }).errors;
      const first = errors?.[0]?.extensions;
      if (!errors || !first || typeof first.code !== "string" || typeof first.status !== "number") continue;
      const { http: _http, ...envelope } = first;
      return { error: { ...envelope, status: first.status }, errors: errors.map(({ message, extensions }) => ({ message, extensions: extensions && Object.fromEntries(Object.entries(extensions).filter(([key]) => key !== "http")) })) };
    } catch {
      // not JSON: keep looking
    }
  }
  return undefined;
}

/** Codes of requests refused before they began executing (Stripe's rule for idempotency). */
export function isRefusal(code: string): boolean {
  return isErrorCode(code) && REFUSAL_STATUSES.has(ERROR_CODES[code].status);
}

/**
 * The client hung up before its answer: nobody will read one, and it is not a fault of ours. It is
 * a debug line and a 499 in the request log, not an "unexpected fault" at error level.
 */
function clientAborted(request: Request, error: unknown): Response | undefined {
  if (!request.signal?.aborted) return undefined;
  logger.debug({ err: error, request_id: currentRequestContext()?.requestId, status: 499 }, "client closed the request");
  return new Response(null, { status: 499 });
}

export function errorResponseFor(error: unknown, path: string, request: Request): Response {
  const aborted = clientAborted(request, error);
  if (aborted) return aborted;
  const apiError = toApiError(error);
  return path === "/graphql" ? graphqlErrorResponse(apiError) : errorResponse(apiError);
}
