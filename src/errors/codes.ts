// The closed vocabulary of failures (contract section 7). One table maps each code to its HTTP
// status, type and retryability, so REST, GraphQL and jobs all report the same thing.

export const ERROR_CODES = {
  invalid_request: { status: 400, type: "invalid_request_error", retryable: false },
  invalid_json: { status: 400, type: "invalid_request_error", retryable: false },
  test_mode_unsupported: { status: 400, type: "invalid_request_error", retryable: false },
  missing_credentials: { status: 401, type: "authentication_error", retryable: false },
  invalid_credentials: { status: 401, type: "authentication_error", retryable: false },
  key_revoked: { status: 401, type: "authentication_error", retryable: false },
  key_expired: { status: 401, type: "authentication_error", retryable: false },
  insufficient_credits: { status: 402, type: "billing_error", retryable: false },
  key_paused: { status: 403, type: "permission_error", retryable: false },
  ip_not_allowed: { status: 403, type: "permission_error", retryable: false },
  origin_not_allowed: { status: 403, type: "permission_error", retryable: false },
  insufficient_scope: { status: 403, type: "permission_error", retryable: false },
  workspace_mismatch: { status: 403, type: "permission_error", retryable: false },
  /** Beyond the contract's table: a signed file link that is malformed, tampered with or expired. */
  link_invalid: { status: 403, type: "permission_error", retryable: false },
  not_found: { status: 404, type: "not_found_error", retryable: false },
  method_not_allowed: { status: 405, type: "invalid_request_error", retryable: false },
  unsupported_format: { status: 406, type: "invalid_request_error", retryable: false },
  /** Beyond the contract's table: the client did not send its whole request in time (server timeouts). */
  request_timeout: { status: 408, type: "invalid_request_error", retryable: false },
  conflict: { status: 409, type: "conflict_error", retryable: true },
  idempotency_conflict: { status: 409, type: "conflict_error", retryable: false },
  idempotency_in_progress: { status: 409, type: "conflict_error", retryable: true },
  payload_too_large: { status: 413, type: "invalid_request_error", retryable: false },
  /**
   * Beyond the contract's table: a body sent as something other than JSON (form data, plain text)
   * is refused with HTTP's own status, 415, rather than parsed as JSON (contract 4.1.2).
   */
  unsupported_media_type: { status: 415, type: "invalid_request_error", retryable: false },
  validation_failed: { status: 422, type: "validation_error", retryable: false },
  /** Beyond the contract's table: the request line and headers exceed the server's 16 KiB. */
  request_header_fields_too_large: { status: 431, type: "invalid_request_error", retryable: false },
  rate_limit_exceeded: { status: 429, type: "rate_limit_error", retryable: true },
  quota_exceeded: { status: 429, type: "rate_limit_error", retryable: false },
  internal_error: { status: 500, type: "api_error", retryable: true },
  upstream_error: { status: 502, type: "api_error", retryable: true },
} as const satisfies Record<string, { status: number; type: string; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export type ErrorType = (typeof ERROR_CODES)[ErrorCode]["type"];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_CODES, value);
}
