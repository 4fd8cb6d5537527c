// Idempotency keys (contract 8) on every unsafe request, following Stripe's rules: the first
// response is kept for 24 hours and replayed for the same key and body; the same key with another
// body is 409 idempotency_conflict; while the first request runs, 409 idempotency_in_progress.
// Only responses of requests that began executing are kept (5xx included); a request refused
// before that (authentication, validation, limits, conflicts) leaves the key free to retry, and
// so does one whose COMMIT went unanswered (the retry resumes and finds out what was saved).
//
// The record lives in PostgreSQL (idempotency_records, idempotency_steps), written in the same
// transactions as the writes it guards (src/db/idempotent-steps.ts), so neither a crash at any
// point nor the loss of Redis's data can make a retry write twice. Redis only holds a short lock
// that keeps two attempts from running at once; the running request renews it, so the key of a
// request that died frees itself within CUTROOM_IDEMPOTENCY_LOCK_MS.
import { createHash, randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { PrismaClient } from "../generated/prisma/client.js";
import { ApiError } from "../errors/api-error.js";
import { reachFaultPoint } from "../testing/fault-points.js";
import { logger } from "../logger.js";
import type { IdempotentRun } from "../context/request-context.js";
import { idempotencySeal, type IdempotencySeal } from "./idempotency-seal.js";
import type { Keyring } from "../config/keyring.js";
import { Response } from "../response.js";

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** Statuses of requests refused before execution: never stored. */
export const REFUSAL_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 405, 406, 409, 413, 422, 429]);
/** Response headers replayed with the stored body (X-Test-Mode is added to every answer later). */
const REPLAYED_HEADERS = ["content-type", "x-request-id", "location"];

export type IdempotencyOutcome =
  | { kind: "execute"; run: IdempotentRun; finish(response: Response, options?: { refused?: boolean }): Promise<Response> }
  | { kind: "replay"; response: Response };

export function fingerprintOf(method: string, url: URL, body: string): string {
  return createHash("sha256").update(`${method} ${url.pathname}?${url.searchParams}\n`).update(body).digest("hex");
}

function validateIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new ApiError("invalid_request", `An Idempotency-Key is 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`, { param: "Idempotency-Key" });
  }
}

function conflict(): ApiError {
  return new ApiError("idempotency_conflict", "This Idempotency-Key was already used with a different request.", {
    param: "Idempotency-Key",
    hint: "Use a new key for a new request; a key replays only the request it was first used with.",
  });
}

function inProgress(): ApiError {
  return new ApiError("idempotency_in_progress", "A request with this Idempotency-Key is still running; retry shortly.", {
    param: "Idempotency-Key",
    headers: { "Retry-After": "1" },
  });
}

interface StoredRecord {
  fingerprint: string;
  response_status: number | null;
  response_headers: unknown;
  response_body: string | null;
  created_at: Date;
}

/** A client's Idempotency-Key always has a seal (a flow node's run, src/flows, has none). */
type SealedRun = IdempotentRun & { seal: IdempotencySeal };

export interface IdempotencyOptions {
  /** Lock lifetime without renewal (the running request renews it every third of it). */
  lockMs: number;
  /** The server keyring answers and steps are sealed with (src/config/keyring.ts). */
  keyring?: Keyring;
}

export class IdempotencyService {
  constructor(
    private readonly redis: Redis,
    private readonly prisma: PrismaClient,
    private readonly options: IdempotencyOptions,
  ) {}

  private async loadRecord(keyId: string, keyHash: string): Promise<StoredRecord | null> {
    const record = await this.prisma.idempotencyRecord.findUnique({
      where: { key_id_key_hash: { key_id: keyId, key_hash: keyHash } },
      select: { fingerprint: true, response_status: true, response_headers: true, response_body: true, created_at: true },
    });
    if (record && record.created_at.getTime() < Date.now() - IDEMPOTENCY_WINDOW_MS) {
      // Past the window the key is new again: the old record (and its steps) goes.
      await this.prisma.idempotencyRecord.deleteMany({ where: { key_id: keyId, key_hash: keyHash, created_at: record.created_at } });
      return null;
    }
    return record;
  }

  /** The stored answer, replayed; or a conflict when the key served another request. */
  private answerFrom(record: StoredRecord, fingerprint: string, seal: IdempotencySeal): Response | undefined {
    if (record.fingerprint !== fingerprint) throw conflict();
    if (record.response_status === null) return undefined;
    const response = new Response(record.response_body === null ? null : seal.openText(record.response_body), { status: record.response_status, headers: (record.response_headers ?? {}) as Record<string, string> });
    response.headers.set("Idempotent-Replayed", "true");
    return response;
  }

  /**
   * Takes the Redis lock and keeps renewing it until `release`. Without Redis the request runs
   * unlocked: the step rows' primary key still lets only one attempt commit each write.
   */
  private async lock(lockKey: string): Promise<(() => Promise<void>) | undefined> {
    const token = randomUUID();
    let taken: string | null;
    try {
      taken = await this.redis.set(lockKey, token, "PX", this.options.lockMs, "NX");
    } catch (error) {
      logger.warn({ err: error }, "idempotency lock unavailable (Redis); running on PostgreSQL's guarantees alone");
      return async () => undefined;
    }
    if (taken !== "OK") return undefined;
    const renew = setInterval(() => {
      this.redis.pexpire(lockKey, this.options.lockMs).catch(() => undefined);
    }, Math.max(100, Math.floor(this.options.lockMs / 3)));
    renew.unref();
    return async () => {
      clearInterval(renew);
      // Only our own lock: after a pause longer than its lifetime it may be another attempt's.
      const current = await this.redis.get(lockKey).catch(() => null);
      if (current === token) await this.redis.del(lockKey).catch(() => undefined);
    };
  }

  /**
   * Claims the key for this request, or answers from (or about) an earlier one. A key whose
   * earlier attempt died after writing resumes that attempt: its committed steps are handed back.
   */
  async begin(keyId: string, idempotencyKey: string, fingerprint: string, requestId: string): Promise<IdempotencyOutcome> {
    validateIdempotencyKey(idempotencyKey);
    const keyHash = createHash("sha256").update(idempotencyKey).digest("hex");
    const seal = idempotencySeal(idempotencyKey, keyId, this.options.keyring);
    const earlier = await this.loadRecord(keyId, keyHash);
    const replay = earlier && this.answerFrom(earlier, fingerprint, seal);
    if (replay) return { kind: "replay", response: replay };

    const release = await this.lock(`idem-lock:${keyId}:${keyHash}`);
    if (!release) throw inProgress();
    try {
      // It may have finished between the first look and the lock.
      const record = await this.loadRecord(keyId, keyHash);
      const answered = record && this.answerFrom(record, fingerprint, seal);
      if (answered) {
        await release();
        return { kind: "replay", response: answered };
      }
      const steps = record ? await this.prisma.idempotencyStep.findMany({ where: { key_id: keyId, key_hash: keyHash }, select: { step: true, result: true } }) : [];
      const run: SealedRun = {
        keyId,
        keyHash,
        fingerprint,
        requestId,
        committed: new Map(steps.map((step) => [step.step, seal.openBytes(step.result)])),
        nextStep: 0,
        wrote: steps.length > 0,
        seal,
      };
      return { kind: "execute", run, finish: (response, options = {}) => this.finish(run, release, response, options.refused ?? false) };
    } catch (error) {
      await release();
      throw error;
    }
  }

  /**
   * Stores the answer of a request that began executing, and frees the key. A refused request is
   * not stored — unless it wrote something first, which a retry must not write again.
   */
  private async finish(run: SealedRun, release: () => Promise<void>, response: Response, refused: boolean): Promise<Response> {
    try {
      if ((refused || REFUSAL_STATUSES.has(response.status)) && !run.wrote) return response;
      // A COMMIT went unanswered: a retry resumes and finds out what was saved, so nothing is stored.
      if (run.commitLost) return response;
      const body = await response.text();
      const headers = Object.fromEntries(REPLAYED_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)!]] : [])));
      const stored = { response_status: response.status, response_headers: headers, response_body: run.seal.sealText(body), completed_at: new Date() };
      await this.prisma.idempotencyRecord.upsert({
        where: { key_id_key_hash: { key_id: run.keyId, key_hash: run.keyHash } },
        create: { key_id: run.keyId, key_hash: run.keyHash, fingerprint: run.fingerprint, request_id: run.requestId, ...stored },
        update: stored,
      });
      reachFaultPoint("idempotency.after_response_stored");
      return new Response(body, { status: response.status, headers: response.headers });
    } finally {
      await release();
    }
  }
}
