// What each error code means and what a client should do about it: the text of the error codes
// page every `doc_url` points to (/docs/api/errors#<code>). Typed by the closed enum, so a new
// code cannot ship without its entry.
import type { ErrorCode } from "./codes.js";

export interface ErrorCodeDoc {
  /** When the service answers with this code. */
  meaning: string;
  /** What the client should do next. */
  action: string;
}

export const ERROR_CODE_DOCS: Record<ErrorCode, ErrorCodeDoc> = {
  invalid_request: {
    meaning:
      "The request does not meet the route's contract: an unknown query parameter, a bad cursor, fields, expand or filter, or a GraphQL document that does not parse. " +
      "It also answers an action that needs a model this deployment has none configured for (\"This deployment has no image model configured\"): " +
      "details then carry capability, setting (the environment variable an operator sets) and available: false, and nothing was spent.",
    action:
      "Read message and param (the offending parameter); details.allowed lists the accepted values where there is a list. Fix the request before sending it again. " +
      "For \"no model configured\": the request is right, the deployment lacks a provider; GET /api/v1 lists which capabilities are available here, and the operator sets details.setting (docs/providers.md) to make one available.",
  },
  invalid_json: {
    meaning: "The body is not valid JSON.",
    action: "Send a JSON object with Content-Type: application/json. Check quoting, trailing commas and truncated bodies.",
  },
  test_mode_unsupported: {
    meaning: "The action cannot be simulated with an sk_test_ key.",
    action: "Call it with a live (sk_live_) key, or leave it out of test runs.",
  },
  missing_credentials: {
    meaning: "No API key was sent.",
    action: "Send the key as Authorization: Bearer <key> or in the X-Api-Key header. Only health and these documentation pages answer without one.",
  },
  invalid_credentials: {
    meaning: "The key is not one the service knows.",
    action: "Check that the whole key was copied (keys are shown once, at creation), and that it was not rotated. Create a new key if it is lost.",
  },
  key_revoked: {
    meaning: "The key was revoked.",
    action: "Use another key of the workspace, or create a new one; a revoked key never works again.",
  },
  key_expired: {
    meaning: "The key is past its expiry date.",
    action: "Create a new key, or extend expires_at with a key that holds api_keys:write before it expires.",
  },
  insufficient_credits: {
    meaning: "The workspace has fewer credits than the call costs. Nothing was spent; details give what the call needed, what was left and the shortfall, and a credits.low event is sent.",
    action: "Make a smaller call (fewer items, shorter duration), or have the service's operator add credits: npm run account -- credits grant <workspace> <credits> --reason \"...\" (docs/credits.md, \"Adding credits\"); the hint names the workspace.",
  },
  key_paused: {
    meaning: "The key is paused.",
    action: "Resume it (PATCH /api/v1/api_keys/{key_id} with paused: false) with a key that holds api_keys:write.",
  },
  ip_not_allowed: {
    meaning: "The caller's IP address is outside the key's IP allow-list.",
    action: "Call from an allowed address, or add this one to the key's ip_allowlist.",
  },
  origin_not_allowed: {
    meaning: "The browser Origin of the request is outside the key's origin allow-list.",
    action: "Call from an allowed origin, or add this one to the key's origin_allowlist.",
  },
  insufficient_scope: {
    meaning: "The key lacks a scope the route or action needs; details.required_scopes and details.granted_scopes say which.",
    action: "Use a key that holds the required scopes, or create one that does (a key can grant only scopes its creator holds). Remember that write never implies execute.",
  },
  workspace_mismatch: {
    meaning: "The record, or the X-Workspace-Id sent, belongs to another workspace than the key's.",
    action: "Use a key of that workspace, or an id from the key's own workspace.",
  },
  link_invalid: {
    meaning: "A signed file link (/files/…) is incomplete, was altered, or has expired; details.reason says which.",
    action: "Ask the API for the record again: it answers with a freshly signed link.",
  },
  not_found: {
    meaning: "No record with that id exists in the workspace, or there is no such route or action.",
    action: "Check the id (param names its field) or the path. Ids of other workspaces answer workspace_mismatch instead.",
  },
  method_not_allowed: {
    meaning: "The path exists, but not with this HTTP verb.",
    action: "Use one of the verbs in the Allow header (also in details.allowed_methods).",
  },
  unsupported_format: {
    meaning: "The list format asked for (format or Accept) is not json, ndjson or csv.",
    action: "Ask for json (the default), ndjson or csv.",
  },
  conflict: {
    meaning: "The record changed underneath the request.",
    action: "Read the record again and repeat the change; this can succeed.",
  },
  idempotency_conflict: {
    meaning: "The Idempotency-Key was already used with a different request body.",
    action: "Use a new Idempotency-Key for a different request; repeat a request only with its own body.",
  },
  idempotency_in_progress: {
    meaning: "The first request with this Idempotency-Key is still running.",
    action: "Wait a moment and send the same request again: you will get the first request's answer.",
  },
  payload_too_large: {
    meaning: "The body is larger than the service accepts, a batch has more than 20 members, or a bulk call more than 100 items.",
    action: "Split the work into smaller calls.",
  },
  request_timeout: {
    meaning: "The request line, headers or body did not arrive within the server's time limits, so the connection was closed (docs/security.md).",
    action: "Send the whole request promptly; on a slow link, retry. Nothing was run.",
  },
  request_header_fields_too_large: {
    meaning: "The request line and headers together are larger than the server reads (16 KiB).",
    action: "Send shorter headers: no oversized cookies or custom headers. Nothing was run.",
  },
  unsupported_media_type: {
    meaning: "A body was sent with a Content-Type other than application/json (form data, plain text, or none at all), so the service did not read it.",
    action: "Send the body as JSON with Content-Type: application/json (with curl: -H 'Content-Type: application/json').",
  },
  validation_failed: {
    meaning: "The body (or a GraphQL input, or a list argument such as limit, sort or order) fails validation; details.issues lists each problem with its path, message and type, and unknown fields and closed sets list the allowed values (did_you_mean when close).",
    action: "Fix every listed issue and send the request again.",
  },
  rate_limit_exceeded: {
    meaning: "One of the key's rate windows (minute, hour, day, or the daily budget of calls that spend credits) is spent; X-RateLimit-Window names it.",
    action: "Wait the number of seconds in Retry-After, then repeat the request; spread calls out or ask for higher limits.",
  },
  quota_exceeded: {
    meaning: "The key's monthly quota (requests or credits) is spent.",
    action: "Wait for the next month (Retry-After gives the seconds), or raise the key's quota_limit.",
  },
  internal_error: {
    meaning: "The service failed while handling the request. The fault is logged with the request_id.",
    action: "Repeat the request later (with the same Idempotency-Key for writes); if it persists, report the request_id. With details.write_outcome (unknown, committed) a write may have been saved: retry only with the same Idempotency-Key, or check what was saved first.",
  },
  upstream_error: {
    meaning: "A provider the service relies on (a model, a storage or a publishing platform) failed.",
    action: "Repeat the request later (with the same Idempotency-Key for writes).",
  },
};
