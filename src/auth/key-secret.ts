// Key secrets: `sk_live_` or `sk_test_` followed by 32 base62 characters (~190 bits). Only the
// SHA-256 of the whole key is stored: the secret is high-entropy, so a slow hash adds nothing,
// and an indexed hash lookup keeps authentication to one query.
import { createHash } from "node:crypto";
import { customAlphabet } from "nanoid";

export type KeyMode = "live" | "test";

const secretPart = customAlphabet("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 32);
const KEY_PATTERN = /^sk_(live|test)_[0-9A-Za-z]{32}$/;

export interface MintedSecret {
  secret: string;
  hash: string;
  prefix: string;
  last4: string;
}

export function mintSecret(mode: KeyMode): MintedSecret {
  const secret = `sk_${mode}_${secretPart()}`;
  return { secret, hash: hashSecret(secret), prefix: secret.slice(0, 12), last4: secret.slice(-4) };
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function isWellFormedKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

/** The mode a presented key claims by its prefix, before it is verified. */
export function claimedMode(value: string): KeyMode | undefined {
  if (value.startsWith("sk_test_")) return "test";
  if (value.startsWith("sk_live_")) return "live";
  return undefined;
}
