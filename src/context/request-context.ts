// Per-request facts that code deep in the stack needs (request id for errors and events,
// livemode for envelopes) without threading them through every signature.
import { AsyncLocalStorage } from "node:async_hooks";
import type { AuthContext } from "../auth/auth-context.js";

export interface RequestContext {
  requestId: string;
  /** Origin used for links such as doc_url. */
  baseUrl: string;
  /** Set once the credential has been checked. */
  auth?: AuthContext;
  /** Mode the presented key claims by its prefix, before it is verified (for error envelopes). */
  livemodeHint?: boolean;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runInRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}
