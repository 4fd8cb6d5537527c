// JSON responses with the contract's envelopes: errors under `error`, single objects and lists
// with `livemode` and `request_id` (contract 2.1.3, 4.1.7).
import { ApiError } from "../errors/api-error.js";
import { errorEnvelope } from "../errors/envelope.js";
import { currentRequestContext } from "../context/request-context.js";
import { Response } from "../response.js";

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

export function errorResponse(error: ApiError): Response {
  return jsonResponse(errorEnvelope(error), error.status, error.headers);
}

/** Adds livemode and request_id to a success body. */
export function withEnvelope(body: Record<string, unknown>): Record<string, unknown> {
  const context = currentRequestContext();
  return { ...body, livemode: context?.auth?.livemode ?? true, request_id: context?.requestId ?? "" };
}

/**
 * The success body printed with livemode and request_id last, as withEnvelope gives them, but
 * without copying the record first: the members are added to the printed object.
 */
export function printWithEnvelope(body: unknown): string {
  if (body === null || typeof body !== "object" || Array.isArray(body) || "livemode" in body || "request_id" in body) {
    return JSON.stringify(withEnvelope((body ?? {}) as Record<string, unknown>));
  }
  const context = currentRequestContext();
  const members = `"livemode":${context?.auth?.livemode ?? true},"request_id":${JSON.stringify(context?.requestId ?? "")}`;
  const printed = JSON.stringify(body);
  return printed === "{}" ? `{${members}}` : `${printed.slice(0, -1)},${members}}`;
}

/** 405 with the methods the path does answer, in `Allow` and in `details`. */
export function methodNotAllowed(method: string, path: string, allow: string): ApiError {
  return new ApiError("method_not_allowed", `${method} is not allowed on ${path}.`, {
    headers: { Allow: allow },
    details: { allowed_methods: allow.split(", ") },
  });
}
