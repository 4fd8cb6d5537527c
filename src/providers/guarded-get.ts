// GET through the URL guard, following redirects by hand: the guard never follows one itself, so
// each hop's address is checked again before it is fetched (a redirect to a private address is
// refused like a direct link to it). Used for pages a user names and for media a provider's answer
// points at.
import type { FetchOptions, FetchResult, OutboundGuard } from "../outbound/url-guard.js";

export const MAX_REDIRECTS = 3;

export class TooManyRedirectsError extends Error {
  constructor() {
    super(`More than ${MAX_REDIRECTS} redirects.`);
    this.name = "TooManyRedirectsError";
  }
}

function header(result: FetchResult, name: string): string | undefined {
  const value = result.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The final answer (any status but a redirect with a Location) and the address it came from. */
export async function guardedGet(outbound: OutboundGuard, url: string, options: Omit<FetchOptions, "method" | "body"> = {}): Promise<{ url: string; result: FetchResult }> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const result = await outbound.fetch(current, { ...options, method: "GET" });
    const location = header(result, "location");
    if (result.status < 300 || result.status >= 400 || !location) return { url: current, result };
    if (hop >= MAX_REDIRECTS) throw new TooManyRedirectsError();
    current = new URL(location, current).toString();
  }
}

/** A response header as one string. */
export function headerOf(result: FetchResult, name: string): string | undefined {
  return header(result, name);
}
