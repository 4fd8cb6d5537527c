// The review link of a script (docs/scripts.md, "Review"): `{base}/review/<token>`. The token is
// minted here — 24 random bytes, 32 base64url characters (192 bits) — and can never be chosen by a
// caller; rotating replaces it, so the old link stops working.
import { randomBytes } from "node:crypto";

export const REVIEW_PATH = "/review";

/** A token's shape: anything else is answered 404 without a database read. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export function mintShareToken(): string {
  return randomBytes(24).toString("base64url");
}

export function reviewUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${REVIEW_PATH}/${token}`;
}
