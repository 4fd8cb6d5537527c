// One interface for every platform a post can go out on (docs/publishing.md, "Platforms"). An
// adapter uploads the video with the platform's own documented protocol and answers the published
// post's id and URL, or throws a PlatformError with a stable code.
import type { PlatformCredentials } from "../credentials.js";

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

export interface PlatformAdapter {
  platform: string;
  publish(request: PublishRequest): Promise<PublishResult>;
}

export class PlatformError extends Error {
  constructor(readonly code: "platform_auth_failed" | "platform_rejected" | "platform_unavailable" | "platform_protocol_error", message: string) {
    super(message);
    this.name = "PlatformError";
  }
}

const CALL_TIMEOUT_MS = 120_000;

/** One HTTP call to a platform; a network failure or a 5xx is `platform_unavailable`. */
export async function platformCall(platform: string, url: string, init: RequestInit & { signal?: AbortSignal }): Promise<Response> {
  const signal = init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]) : AbortSignal.timeout(CALL_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal, redirect: "manual" });
  } catch (error) {
    throw new PlatformError("platform_unavailable", `${platform} could not be reached: ${(error as Error).message}`);
  }
  if (response.status === 401 || response.status === 403) {
    throw new PlatformError("platform_auth_failed", `${platform} refused the account's credentials (HTTP ${response.status}); reconnect the account.`);
  }
  if (response.status >= 500) throw new PlatformError("platform_unavailable", `${platform} failed (HTTP ${response.status}).`);
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
