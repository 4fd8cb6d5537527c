// One interface for every platform a post can go out on (docs/publishing.md, "Platforms"). An
// adapter uploads the video with the platform's own documented protocol and answers the published
// post's id and URL, or throws a PlatformError with a stable code.
import type { PlatformCredentials } from "../credentials.js";
import type { OAuthClient } from "../../config/publishing.js";

export interface PublishRequest {
  /** The account's opened credentials. */
  credentials: PlatformCredentials;
  /** The platform API's base URL (configuration: CUTROOM_<PLATFORM>_API_URL). */
  baseUrl: string;
  video: { bytes: Buffer; contentType: string };
  title: string;
  caption: string;
  signal?: AbortSignal;
}

export interface PublishResult {
  platform_post_id: string;
  url: string;
}

export interface RefreshRequest {
  /** The account's credentials; `refresh_token` is set. */
  credentials: PlatformCredentials & { refresh_token: string };
  client: OAuthClient;
  signal?: AbortSignal;
}

/** What a token endpoint answered: the new access token, and a new refresh token if it rotates them. */
export interface RefreshedTokens {
  access_token: string;
  refresh_token?: string;
  /** Seconds the access token lives. */
  expires_in?: number;
}

export interface PlatformAdapter {
  platform: string;
  publish(request: PublishRequest): Promise<PublishResult>;
  /** Trades the refresh token for a new access token (OAuth 2.0 refresh_token grant). */
  refresh(request: RefreshRequest): Promise<RefreshedTokens>;
}

/**
 * One refresh_token grant, the form each platform documents: `fields` name the client the way the
 * platform does (client_id or client_key). A refused grant (4xx: revoked, expired, another app's
 * token) means the account must be connected again.
 */
export async function refreshGrant(platform: string, tokenUrl: string, fields: Record<string, string>, signal?: AbortSignal): Promise<RefreshedTokens> {
  const response = await platformFetch(`${platform}'s token endpoint`, tokenUrl, {
    method: "POST",
    signal,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...fields, grant_type: "refresh_token" }),
  });
  const answer = await jsonOf<{ access_token?: unknown; refresh_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown }>(platform, response);
  if (response.status >= 400 || answer.error || typeof answer.access_token !== "string" || !answer.access_token) {
    const reason = [answer.error, answer.error_description].filter((part) => typeof part === "string").join(": ") || `HTTP ${response.status}`;
    throw new PlatformError("platform_auth_failed", `${platform} would not refresh the account's token (${reason}); reconnect the account.`);
  }
  return {
    access_token: answer.access_token,
    ...(typeof answer.refresh_token === "string" && answer.refresh_token && { refresh_token: answer.refresh_token }),
    ...(typeof answer.expires_in === "number" && answer.expires_in > 0 && { expires_in: answer.expires_in }),
  };
}

export class PlatformError extends Error {
  constructor(readonly code: "platform_auth_failed" | "platform_rejected" | "platform_unavailable" | "platform_protocol_error", message: string) {
    super(message);
    this.name = "PlatformError";
  }
}

const CALL_TIMEOUT_MS = 120_000;

/** One HTTP call, bounded in time; a network failure or a 5xx is `platform_unavailable`. A 4xx is the caller's to read. */
async function platformFetch(what: string, url: string, init: RequestInit & { signal?: AbortSignal }): Promise<Response> {
  const signal = init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]) : AbortSignal.timeout(CALL_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal, redirect: "manual" });
  } catch (error) {
    throw new PlatformError("platform_unavailable", `${what} could not be reached: ${(error as Error).message}`);
  }
  if (response.status >= 500) throw new PlatformError("platform_unavailable", `${what} failed (HTTP ${response.status}).`);
  return response;
}

/** One call of a platform's upload API: platformFetch, and a 4xx is a refused account or upload. */
export async function platformCall(platform: string, url: string, init: RequestInit & { signal?: AbortSignal }): Promise<Response> {
  const response = await platformFetch(platform, url, init);
  if (response.status === 401 || response.status === 403) {
    throw new PlatformError("platform_auth_failed", `${platform} refused the account's credentials (HTTP ${response.status}); reconnect the account.`);
  }
  if (response.status >= 400) throw new PlatformError("platform_rejected", `${platform} rejected the upload (HTTP ${response.status}): ${(await response.text()).slice(0, 300)}`);
  return response;
}

export async function jsonOf<T>(platform: string, response: Response): Promise<T> {
  try {
    return (await response.json()) as T;
  } catch {
    throw new PlatformError("platform_protocol_error", `${platform} answered something other than JSON.`);
  }
}
