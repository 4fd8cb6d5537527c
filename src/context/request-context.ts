// Per-request facts that code deep in the stack needs (request id for errors and events,
// livemode for envelopes) without threading them through every signature.
import { AsyncLocalStorage } from "node:async_hooks";
// The types of what it holds are declared here (or beside it, ./auth-context.ts) rather than
// imported from the layers that fill them, so that every layer can read the context.
import type { AuthContext } from "./auth-context.js";

/** The request's account with the rate windows and the quota (src/guards/meter.ts). */
export interface RequestMeter {
  /** Counts `points` request units; throws 429 when a window or a request quota is spent. */
  charge(points: number, options?: { spendsCredits?: boolean }): Promise<void>;
  /** Counts credits spent against a credits quota. */
  chargeCredits(amount: number): Promise<void>;
  /** The rate window with the fewest units left. */
  tightestWindow(): { window: string; limit: number; remaining: number; reset: number; seconds: number } | undefined;
  /** X-RateLimit-* and quota headers of the answer. */
  headers(): Record<string, string>;
}

/**
 * A request that runs under an Idempotency-Key (docs/guards.md, "Idempotency"): each of its
 * write transactions is a step, committed with its result (src/db/idempotent-steps.ts).
 */
export interface IdempotentRun {
  keyId: string;
  keyHash: string;
  fingerprint: string;
  /** The request that writes under the key (for the record, if it is the first to write). */
  requestId: string;
  /** Results of the steps an earlier attempt committed, by position. */
  committed: Map<number, Uint8Array>;
  /** Position of the next write transaction. */
  nextStep: number;
  /** Has this attempt (or an earlier one) committed anything under the key? */
  wrote: boolean;
  /**
   * A write's COMMIT went unanswered (src/db/transaction.ts): the answer is not stored, so a retry
   * with the key resumes and finds out what was saved.
   */
  commitLost?: boolean;
  /** Seals step results at rest, when the run has a client's Idempotency-Key to seal them under. */
  seal?: { sealBytes(plain: Uint8Array): Uint8Array<ArrayBuffer>; openBytes(stored: Uint8Array): Uint8Array };
}

/** A named-event channel an action writes to while it runs (src/actions/framework/stream.ts). */
export interface AnswerStream {
  send(event: string, data: unknown): void;
}

export interface RequestContext {
  requestId: string;
  /** Origin used for links such as doc_url. */
  baseUrl: string;
  /** Set once the credential has been checked. */
  auth?: AuthContext;
  /** Mode the presented key claims by its prefix, before it is verified (for error envelopes). */
  livemodeHint?: boolean;
  /** The request's account with the rate windows and quota (set once authenticated). */
  meter?: RequestMeter;
  /** Route pattern for the request log, e.g. /api/v1/videos/{video_id}. */
  route?: string;
  /** The path the request log keeps when the real one holds a secret (a review link's token). */
  logPath?: string;
  /** Code of the error the request was answered with, if any. */
  errorCode?: string;
  /** Rate headers of a request without a valid key (its address's window). */
  anonymousRateHeaders?: Record<string, string>;
  /** The response is a stored idempotent one. */
  idempotentReplay?: boolean;
  /** The request runs under an Idempotency-Key: its write transactions are the key's steps. */
  idempotency?: IdempotentRun;
  /** The request body has been read (within the size cap); an answer before that closes the connection. */
  bodyRead?: boolean;
  /**
   * Set by REST for an action that answers bytes (scripts.listen, tools.image_crop) when the
   * client did not ask for JSON: the runner leaves the bytes here instead of storing them for a
   * link, and REST sends them as the body (src/actions/framework/binary.ts).
   */
  binaryAnswer?: { file?: { data: Uint8Array; contentType: string; filename: string } };
  /**
   * Set by REST for an action that streams (agents.execute with `stream: true`) when the client
   * did not ask for JSON: the handler opens it and writes Server-Sent Events
   * (src/actions/framework/stream.ts).
   */
  streamAnswer?: { open(): AnswerStream };
  /**
   * The call reached an action, which records its own action.completed / action.failed; a call
   * refused before it (405, invalid_json, 429, idempotency_conflict, an unknown action) is
   * recorded by REST instead (rest/action-refusals.ts).
   */
  actionReached?: boolean;
  /**
   * Write transactions of this request that committed (src/db/transaction.ts): a fault after one
   * is answered as such (src/errors/envelope.ts), since a blind retry would write again.
   */
  committedWrites?: number;
  /** Writes started where nothing can wait for them (a sync hook); awaited before the answer goes out. */
  pendingWrites?: Promise<unknown>[];
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runInRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}
