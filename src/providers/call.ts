// What every provider call goes through: a time limit combined with the caller's signal, the
// conversion of failures into upstream_error, and the meta record of what the call used. Hand
// adapters (fal, ElevenLabs, SearXNG, Tavily) also fetch through fetchWithRetries, the same policy
// the AI SDK applies to its own calls: exponential backoff on 429, 5xx and unreachable hosts,
// honouring Retry-After.
import { setTimeout as sleep } from "node:timers/promises";
import { ProviderHttpError, ProviderUnreachableError, describeFailure, safeCode, timeoutFailure, upstreamError, type CallTarget } from "./errors.js";
import type { CallMeta, CallOptions, Usage } from "./types.js";

function elapsedMs(started: number): number {
  return Math.round(performance.now() - started);
}

/** Rejects as soon as the signal aborts, even when the work itself ignores signals (a guarded download, a child process). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** The caller's signal and a time limit, as one signal. */
export function limitSignal(timeoutMs: number, signal?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/**
 * Runs one provider call under a time limit. The caller's own abort is rethrown as it is (the
 * caller chose it); the limit running out, and any provider failure, become upstream_error.
 */
export async function limitedCall<T>(target: CallTarget, timeoutMs: number, options: CallOptions | undefined, run: (signal: AbortSignal) => Promise<T>): Promise<{ value: T; durationMs: number }> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options?.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const value = await untilAborted(run(signal), signal);
    return { value, durationMs: elapsedMs(started) };
  } catch (error) {
    if (options?.signal?.aborted) throw options.signal.reason ?? error;
    if (timeout.aborted) throw upstreamError(target, timeoutFailure(timeoutMs));
    const failure = describeFailure(error);
    if (failure) throw upstreamError(target, failure);
    throw error;
  }
}

/** The record a result carries: who answered, what it used, how long it took. */
export function callMeta(target: CallTarget, usage: Usage, durationMs: number): CallMeta {
  return { capability: target.capability, provider: target.provider, model: target.model, usage, duration_ms: durationMs };
}

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First pause; doubled on each further retry. */
  baseDelayMs: number;
}

/** The AI SDK's rule, kept for the hand adapters: a Retry-After under a minute is honoured, a longer one falls back to backoff. */
const MAX_RETRY_AFTER_MS = 60_000;

/** Retry-After as milliseconds: delta-seconds (fractions accepted) or an HTTP date. */
export function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) && ms >= 0 && ms < MAX_RETRY_AFTER_MS ? ms : undefined;
}

function backoffMs(policy: RetryPolicy, retry: number): number {
  // ±10% jitter, so callers throttled together do not come back together.
  return Math.round(policy.baseDelayMs * 2 ** retry * (0.9 + Math.random() * 0.2));
}

function retryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** A short error code from a provider's JSON error body, never its free text. */
async function errorCodeOf(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.json()) as { error?: { code?: unknown; type?: unknown } | string; detail?: unknown; code?: unknown };
    if (body.error && typeof body.error === "object") return safeCode(body.error.code) ?? safeCode(body.error.type);
    if (body.detail && typeof body.detail === "object") return safeCode((body.detail as { status?: unknown }).status);
    return safeCode(body.code);
  } catch {
    return undefined;
  }
}

/**
 * fetch with the retry policy. Resolves only with a 2xx answer; otherwise throws
 * ProviderHttpError (the last status) or ProviderUnreachableError, errors no other retry loop
 * (the fal client's) treats as retryable, so attempts are never multiplied. `init.signal` aborts
 * both the request and the pauses between attempts.
 */
export async function fetchWithRetries(url: string, init: RequestInit, policy: RetryPolicy): Promise<Response> {
  const signal = init.signal ?? undefined;
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= policy.maxRetries;
    let response: Response;
    try {
      response = await fetch(url, init);
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      if (last) throw new ProviderUnreachableError();
      await sleep(backoffMs(policy, attempt), undefined, { signal: signal ?? undefined });
      continue;
    }
    if (response.ok) return response;
    if (last || !retryableStatus(response.status)) throw new ProviderHttpError(response.status, await errorCodeOf(response));
    const pause = retryAfterMs(response.headers.get("retry-after")) ?? backoffMs(policy, attempt);
    await response.body?.cancel();
    await sleep(pause, undefined, { signal: signal ?? undefined });
  }
}

/** fetchWithRetries in fetch's own shape, for clients that take a fetch (the fal client). */
export function retryingFetch(policy: RetryPolicy): typeof fetch {
  return (input, init) => fetchWithRetries(input instanceof Request ? input.url : String(input), init ?? {}, policy);
}
