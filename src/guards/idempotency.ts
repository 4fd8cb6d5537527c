// Idempotency keys (contract 8) on every unsafe request, following Stripe's rules: the first
// response is kept for 24 hours and replayed for the same key and body; the same key with another
// body is 409 idempotency_conflict; while the first request runs, 409 idempotency_in_progress.
// Only responses of requests that began executing are kept (5xx included); a request refused
// before that (authentication, validation, limits, conflicts) leaves the key free to retry.
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { ApiError } from "../errors/api-error.js";

const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** How long a running request holds its key before it is presumed dead. */
const LOCK_SECONDS = 300;
/** Statuses of requests refused before execution: never stored. */
export const REFUSAL_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 405, 406, 409, 413, 422, 429]);
/** Response headers replayed with the stored body (X-Test-Mode is added to every answer later). */
const REPLAYED_HEADERS = ["content-type", "x-request-id", "location"];

interface RunningEntry {
  state: "running";
  fingerprint: string;
}

interface StoredEntry {
  state: "complete";
  fingerprint: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type IdempotencyOutcome = { kind: "execute"; finish(response: Response, options?: { refused?: boolean }): Promise<Response> } | { kind: "replay"; response: Response };

export function fingerprintOf(method: string, url: URL, body: string): string {
  return createHash("sha256").update(`${method} ${url.pathname}?${url.searchParams}\n`).update(body).digest("hex");
}

function validateIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new ApiError("invalid_request", `An Idempotency-Key is 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`, { param: "Idempotency-Key" });
  }
}

export class IdempotencyService {
  constructor(private readonly redis: Redis) {}

  private storageKey(apiKeyId: string, idempotencyKey: string): string {
    return `idem:${apiKeyId}:${createHash("sha256").update(idempotencyKey).digest("hex")}`;
  }

  /** Claims the key for this request, or answers from (or about) an earlier one. */
  async begin(apiKeyId: string, idempotencyKey: string, fingerprint: string): Promise<IdempotencyOutcome> {
    validateIdempotencyKey(idempotencyKey);
    const key = this.storageKey(apiKeyId, idempotencyKey);
    const running: RunningEntry = { state: "running", fingerprint };
    const claimed = await this.redis.set(key, JSON.stringify(running), "EX", LOCK_SECONDS, "NX");
    if (claimed === "OK") {
      return {
        kind: "execute",
        finish: async (response, options = {}) => {
          if (options.refused || REFUSAL_STATUSES.has(response.status)) {
            await this.redis.del(key);
            return response;
          }
          const body = await response.text();
          const headers = Object.fromEntries(REPLAYED_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)!]] : [])));
          const stored: StoredEntry = { state: "complete", fingerprint, status: response.status, headers, body };
          await this.redis.set(key, JSON.stringify(stored), "EX", IDEMPOTENCY_WINDOW_SECONDS);
          return new Response(body, { status: response.status, headers: response.headers });
        },
      };
    }
    const existing = await this.redis.get(key);
    if (!existing) return this.begin(apiKeyId, idempotencyKey, fingerprint); // expired in between
    const entry = JSON.parse(existing) as RunningEntry | StoredEntry;
    if (entry.fingerprint !== fingerprint) {
      throw new ApiError("idempotency_conflict", "This Idempotency-Key was already used with a different request.", {
        param: "Idempotency-Key",
        hint: "Use a new key for a new request; a key replays only the request it was first used with.",
      });
    }
    if (entry.state === "running") {
      throw new ApiError("idempotency_in_progress", "A request with this Idempotency-Key is still running; retry shortly.", {
        param: "Idempotency-Key",
        headers: { "Retry-After": "1" },
      });
    }
    const response = new Response(entry.body, { status: entry.status, headers: entry.headers });
    response.headers.set("Idempotent-Replayed", "true");
    return { kind: "replay", response };
  }
}
