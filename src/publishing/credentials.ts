// Connected accounts' credentials at rest (docs/publishing.md, "Key handling"): node:crypto
// AES-256-GCM under the 32-byte CUTROOM_ACCOUNTS_KEY, a fresh 12-byte IV per seal, the account id
// as additional data (a sealed value copied onto another account does not open), stored as
// `v1.<iv>.<tag>.<ciphertext>` in base64url. The API never shows the column.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { z } from "zod";

export const platformCredentials = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  expires_at: z.string().optional(),
});
export type PlatformCredentials = z.output<typeof platformCredentials>;

export class MissingAccountsKeyError extends Error {
  constructor() {
    super("CUTROOM_ACCOUNTS_KEY is not set: connected accounts' credentials cannot be sealed or opened (docs/publishing.md).");
    this.name = "MissingAccountsKeyError";
  }
}

function keyOf(key: Buffer | undefined): Buffer {
  if (!key) throw new MissingAccountsKeyError();
  return key;
}

export function sealCredentials(key: Buffer | undefined, accountId: string, credentials: PlatformCredentials): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(key), iv);
  cipher.setAAD(Buffer.from(accountId));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(platformCredentials.parse(credentials)), "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), sealed].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

export function openCredentials(key: Buffer | undefined, accountId: string, stored: string): PlatformCredentials {
  const [version, iv, tag, sealed] = stored.split(".");
  if (version !== "v1" || !iv || !tag || sealed === undefined) throw new Error("The stored credentials are not in a known format.");
  const decipher = createDecipheriv("aes-256-gcm", keyOf(key), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(accountId));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  const plain = Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString("utf8");
  return platformCredentials.parse(JSON.parse(plain));
}
