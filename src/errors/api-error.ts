import { ERROR_CODES, type ErrorCode } from "./codes.js";
import { currentRequestContext } from "../context/request-context.js";

export interface ApiErrorOptions {
  param?: string;
  details?: Record<string, unknown>;
  hint?: string;
  /** Extra response headers, e.g. Allow on a 405 or Retry-After on a 429. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/** The one error class of the service: a code from the closed enum plus what the client needs. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly param?: string;
  readonly details?: Record<string, unknown>;
  readonly hint?: string;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ApiError";
    this.code = code;
    this.param = options.param;
    this.details = options.details;
    this.hint = options.hint;
    this.headers = options.headers;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  get type(): string {
    return ERROR_CODES[this.code].type;
  }

  get retryable(): boolean {
    return ERROR_CODES[this.code].retryable;
  }
}

export function notFound(kind: string, id: string, param?: string): ApiError {
  // An id is echoed back cut short: a client can send megabytes as one.
  const shown = id.length > 100 ? `${id.slice(0, 100)}… (${id.length} characters)` : id;
  return new ApiError("not_found", `No ${kind} with id '${shown}' in this workspace.`, { param });
}

/**
 * A fault once a write may have been saved (docs/errors.md, "A write whose answer was lost"):
 * `unknown` when the COMMIT itself went unanswered, `committed` when the service failed after a
 * write of the request committed. Still a 500 `internal_error`, with `details.write_outcome`, and
 * a hint that depends on whether an Idempotency-Key makes the retry safe.
 */
export function writeOutcomeError(outcome: "unknown" | "committed", cause?: unknown): ApiError {
  const keyed = currentRequestContext()?.idempotency !== undefined;
  const message =
    outcome === "unknown"
      ? "The database connection was lost while this write was being committed: it may or may not have been saved."
      : "This request's write was saved, but the service failed before its answer was complete.";
  const hint = keyed
    ? "Retry with the same Idempotency-Key: it never writes twice, and answers what was saved."
    : "A retry without an Idempotency-Key may write again: check what was saved first, and send an Idempotency-Key with unsafe requests so that retries are safe.";
  return new ApiError("internal_error", message, { details: { write_outcome: outcome }, hint, cause });
}
