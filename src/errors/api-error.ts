import { ERROR_CODES, type ErrorCode } from "./codes.js";

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
