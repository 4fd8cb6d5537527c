// Per-request facts that code deep in the stack needs (request id for errors and events,
// livemode for envelopes) without threading them through every signature.
import { AsyncLocalStorage } from "node:async_hooks";
import type { AuthContext } from "../auth/auth-context.js";
import type { RequestMeter } from "../guards/meter.js";
import type { IdempotentRun } from "../guards/idempotent-run.js";

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
  streamAnswer?: import("../actions/framework/stream.js").SseChannel;
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
