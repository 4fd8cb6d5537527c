// One failure shape for every route (contract section 7). Anything that is not an ApiError is a
// fault of the service: it is logged with the request id and reported as internal_error, never
// with its own message or stack (saying so when a write of the request had committed before it).
import { GraphQLError } from "graphql";
import { ApiError, writeOutcomeError } from "./api-error.js";
import { ERROR_CODES } from "./codes.js";
import { currentRequestContext } from "../context/request-context.js";
import { logger } from "../logger.js";

export interface ErrorEnvelope {
  error: {
    type: string;
    code: string;
    status: number;
    message: string;
    param?: string;
    details?: Record<string, unknown>;
    hint?: string;
    retryable: boolean;
    livemode: boolean;
    request_id: string;
    doc_url: string;
  };
}

/** Finds the ApiError behind an error, looking through GraphQL wrapping. */
export function findApiError(error: unknown): ApiError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof ApiError) return current;
    if (current instanceof GraphQLError) current = current.originalError;
    else if (current instanceof Error && current.cause) current = current.cause;
    else return undefined;
  }
  return undefined;
}

/** Converts anything thrown into an ApiError, logging what the client must not see. */
export function toApiError(error: unknown): ApiError {
  const apiError = findApiError(error);
  if (apiError) return apiError;
  const context = currentRequestContext();
  logger.error({ err: error, request_id: context?.requestId }, "unexpected fault");
  // A write of the request committed before the fault: the client must not take it for nothing done.
  if (context?.committedWrites) return writeOutcomeError("committed");
  return new ApiError("internal_error", "The service failed to handle this request. It has been logged; retry later.");
}

export function docUrl(code: string, baseUrl = currentRequestContext()?.baseUrl ?? ""): string {
  return `${baseUrl}/docs/api/errors#${code}`;
}

/** Longest message an envelope carries; what a client sent is echoed at most this long. */
const MAX_MESSAGE_CHARS = 2_000;
const MAX_ECHO_CHARS = 200;

/** `text` cut to `max` characters, saying how long it was (an error never echoes megabytes back). */
export function clipEcho(text: string, max = MAX_ECHO_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/** Strings inside `details` clipped like messages, a few levels deep. */
function clipDetails(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return clipEcho(value, MAX_ECHO_CHARS * 5);
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.slice(0, 100).map((item) => clipDetails(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [clipEcho(key), clipDetails(item, depth + 1)]));
}

export function errorEnvelope(error: ApiError): ErrorEnvelope {
  const context = currentRequestContext();
  // The first error a request reports is the one its log entry names.
  if (context && !context.errorCode) context.errorCode = error.code;
  const spec = ERROR_CODES[error.code];
  return {
    error: {
      type: spec.type,
      code: error.code,
      status: spec.status,
      message: clipEcho(error.message, MAX_MESSAGE_CHARS),
      ...(error.param !== undefined && { param: clipEcho(error.param) }),
      ...(error.details !== undefined && { details: clipDetails(error.details) as Record<string, unknown> }),
      ...(error.hint !== undefined && { hint: error.hint }),
      retryable: spec.retryable,
      livemode: context?.auth?.livemode ?? context?.livemodeHint ?? true,
      request_id: context?.requestId ?? "",
      doc_url: docUrl(error.code, context?.baseUrl),
    },
  };
}
