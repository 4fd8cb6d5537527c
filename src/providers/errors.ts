// How a failed provider call is reported: always ApiError("upstream_error") (502, retryable), with
// a message built only from our own words (provider name, capability, what failed) and details a
// client or operator can act on. Nothing the provider sent back is copied into the message: an
// upstream error body can echo a key, a signed URL or a prompt, so at most a short error code
// (`rate_limit_exceeded`) is kept, and only when it looks like one.
import { AISDKError, APICallError, RetryError } from "ai";
import { ApiError as FalApiError } from "@fal-ai/client";
import { ApiError } from "../errors/api-error.js";
import { OutboundFetchError } from "../outbound/url-guard.js";
import { TooManyRedirectsError } from "./guarded-get.js";
import type { Capability } from "./types.js";

/** Which call failed: the same three facts a successful call puts in its meta. */
export interface CallTarget {
  capability: Capability;
  provider: string;
  model: string;
}

export type UpstreamReason =
  | "timeout"
  | "http_status"
  | "unreachable"
  | "invalid_answer"
  | "job_failed"
  | "output_too_large"
  | "output_url_refused"
  | "local_failure";

export interface UpstreamFailure {
  reason: UpstreamReason;
  /** What went wrong, in our words: "it answered HTTP 503". */
  what: string;
  /** The provider's HTTP status, when it answered. */
  status?: number;
  /** The provider's own short error code, when it sent one that looks like a code. */
  code?: string;
}

/** An answer with a non-success status from a hand adapter's provider (after its retries). */
export class ProviderHttpError extends Error {
  constructor(readonly status: number, readonly code?: string) {
    super(`The provider answered HTTP ${status}.`);
    this.name = "ProviderHttpError";
  }
}

/** A hand adapter's provider could not be reached (after its retries). */
export class ProviderUnreachableError extends Error {
  constructor() {
    super("The provider could not be reached.");
    this.name = "ProviderUnreachableError";
  }
}

/** A provider answered, but with something the adapter cannot use (or a job it reports as failed). */
export class ProviderAnswerError extends Error {
  constructor(readonly what: string, readonly reason: Extract<UpstreamReason, "invalid_answer" | "job_failed" | "local_failure"> = "invalid_answer") {
    super(what);
    this.name = "ProviderAnswerError";
  }
}

/** The 502 of a failed provider call; `details` carry `{ provider, capability, model, provider_status? }`. */
export function upstreamError(target: CallTarget, failure: UpstreamFailure): ApiError {
  return new ApiError("upstream_error", `The ${target.provider} ${target.capability} call failed: ${failure.what}.`, {
    details: {
      provider: target.provider,
      capability: target.capability,
      model: target.model,
      reason: failure.reason,
      ...(failure.status !== undefined && { provider_status: failure.status }),
      ...(failure.code !== undefined && { provider_code: failure.code }),
    },
    hint: failure.reason === "invalid_answer" || failure.reason === "job_failed"
      ? "The model did not produce a usable result; retrying may succeed."
      : "The provider failed or was too slow; retry later.",
  });
}

/** A time limit reached; the limit is in the message, since it is ours. */
export function timeoutFailure(timeoutMs: number): UpstreamFailure {
  return { reason: "timeout", what: `no answer within ${timeoutMs} ms` };
}

/** Keeps a provider's error code only when it is a plain identifier (never free text). */
export function safeCode(value: unknown): string | undefined {
  return typeof value === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(value) ? value : undefined;
}

function httpFailure(status: number, code?: string): UpstreamFailure {
  const what = status === 429 ? "it kept answering 429 (rate limited)" : `it answered HTTP ${status}`;
  return { reason: "http_status", what, status, ...(code !== undefined && { code }) };
}

/** An OpenAI-style error body's code: `{ error: { code | type } }`. */
function openAiCode(data: unknown): string | undefined {
  if (!data || typeof data !== "object") return undefined;
  const error = (data as { error?: { code?: unknown; type?: unknown } }).error;
  return safeCode(error?.code) ?? safeCode(error?.type);
}

function isTimeout(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 3; current = current.cause, depth++) {
    if (current.name === "TimeoutError" || current.name === "AbortError") return true;
  }
  return false;
}

/**
 * Describes a thrown error as an upstream failure, or returns undefined when it is not one (our own
 * bug, an ApiError already, an abort): those are rethrown as they are.
 */
export function describeFailure(error: unknown): UpstreamFailure | undefined {
  if (error instanceof ApiError) return undefined;
  if (RetryError.isInstance(error)) return describeFailure(error.lastError) ?? { reason: "unreachable", what: "every attempt failed" };
  if (APICallError.isInstance(error)) {
    if (error.statusCode === undefined) return { reason: "unreachable", what: "it could not be reached" };
    return httpFailure(error.statusCode, openAiCode(error.data));
  }
  if (error instanceof ProviderHttpError) return httpFailure(error.status, error.code);
  if (error instanceof ProviderUnreachableError) return { reason: "unreachable", what: "it could not be reached" };
  if (error instanceof ProviderAnswerError) return { reason: error.reason, what: error.what };
  if (error instanceof FalApiError) return httpFailure(error.status);
  if (error instanceof OutboundFetchError) {
    if (error.reason === "timeout") return { reason: "timeout", what: "downloading its output took too long" };
    if (error.reason === "too_large") return { reason: "output_too_large", what: "its output is larger than the service accepts" };
    if (error.reason === "connection_failed") return { reason: "unreachable", what: "its output could not be downloaded" };
    return { reason: "output_url_refused", what: "it pointed at an output address the service may not fetch" };
  }
  if (error instanceof TooManyRedirectsError) return { reason: "output_url_refused", what: "its output address redirects too many times" };
  // Any other AI SDK error is about the answer (no object, no image, a malformed body).
  if (AISDKError.isInstance(error)) return { reason: "invalid_answer", what: "its answer could not be used" };
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) return { reason: "unreachable", what: "it could not be reached" };
  // One request of a longer call (a poll of fal's queue) stopped at the per-request limit. The
  // caller's own abort never gets here (limitedCall rethrows it as it is).
  if (isTimeout(error)) return { reason: "timeout", what: "a request to it got no answer in time" };
  return undefined;
}

/**
 * What a page that could not be read is, the same for every action that reads one (the page
 * reader's failures): the page's server failing (5xx) or too slow is upstream — 502
 * `upstream_error`, retryable, the page reader named; anything else (refused by the URL guard, a
 * 4xx, no readable text, a host that does not resolve) is the caller's to fix — 400
 * `invalid_request`. Either way at `param`, the field that named the page.
 */
export function pageReadFailure(error: unknown, param: string): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.status < 500) return error.param ? error : new ApiError(error.code, error.message, { param, details: error.details, hint: error.hint });
  const details = (error.details ?? {}) as { reason?: string; provider_status?: number };
  const status = details.provider_status;
  if (details.reason === "timeout" || (status !== undefined && status >= 500)) {
    return new ApiError("upstream_error", `The page cannot be read: ${status !== undefined ? `its server answered HTTP ${status}` : "it did not answer in time"}.`, {
      param,
      details: { ...details, reason: details.reason ?? "http_status", ...(status !== undefined && { status }) },
      hint: "The page's server failed or was too slow; retrying later may succeed.",
    });
  }
  const why = status !== undefined ? `it answered HTTP ${status}` : details.reason === "invalid_answer" ? "it has no readable text" : "it could not be reached";
  return new ApiError("invalid_request", `The page cannot be read: ${why}.`, {
    param,
    details: { reason: details.reason ?? "unreachable", ...(status !== undefined && { status }) },
    hint: "Check that the address opens in a browser.",
  });
}
