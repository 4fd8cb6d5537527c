// Signed, expiring file URLs: `<base>/files/<key>?expires=<unix seconds>&signature=<hex>`, where
// the signature is HMAC-SHA256 over `<key>\n<expires>` keyed with the service's file-signing
// secret. Anyone holding the URL may read that one file until it expires; changing the key, the
// expiry or the signature breaks it. The secret is CUTROOM_FILE_SIGNING_SECRET, or else one
// generated on first use and kept in service_settings sealed with the server key (a database copy
// cannot forge links), so URLs survive restarts and every process signs and verifies alike.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { PrismaClient } from "../generated/prisma/client.js";
import { assertValidKey, isValidKey } from "./storage.js";
import { openWithServerKey, sealWithServerKey, type Keyring } from "../config/keyring.js";

export const FILES_PATH_PREFIX = "/files/";
const SIGNING_SECRET_SETTING = "file_signing_secret";
const MIN_SECRET_LENGTH = 16;

export type FileUrlCheck =
  | { ok: true; key: string; expires: number }
  | { ok: false; reason: "malformed" | "signature_invalid" | "expired"; key?: string };

export function fileSignature(secret: string, key: string, expires: number): string {
  return createHmac("sha256", secret).update(`${key}\n${expires}`).digest("hex");
}

/** The path of a key under /files/, each segment percent-encoded. */
function filePath(key: string): string {
  return FILES_PATH_PREFIX + key.split("/").map(encodeURIComponent).join("/");
}

export function signFileUrl(baseUrl: string, key: string, expiresInSeconds: number, secret: string, now = Date.now()): string {
  assertValidKey(key);
  const expires = Math.floor(now / 1000) + Math.max(1, Math.floor(expiresInSeconds));
  return `${baseUrl.replace(/\/+$/, "")}${filePath(key)}?expires=${expires}&signature=${fileSignature(secret, key, expires)}`;
}

/** Checks a signed file URL (its path and query; the origin is not signed). */
export function verifyFileUrl(url: URL | string, secret: string, now = Date.now()): FileUrlCheck {
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url, "http://localhost") : url;
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (!parsed.pathname.startsWith(FILES_PATH_PREFIX)) return { ok: false, reason: "malformed" };
  let key: string;
  try {
    key = parsed.pathname.slice(FILES_PATH_PREFIX.length).split("/").map(decodeURIComponent).join("/");
  } catch {
    return { ok: false, reason: "malformed" };
  }
  const expiresText = parsed.searchParams.get("expires") ?? "";
  const signature = parsed.searchParams.get("signature") ?? "";
  if (!isValidKey(key) || !/^\d{1,12}$/.test(expiresText) || !/^[0-9a-f]{64}$/.test(signature)) return { ok: false, reason: "malformed", key };
  const expires = Number(expiresText);
  const expected = Buffer.from(fileSignature(secret, key, expires), "hex");
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) return { ok: false, reason: "signature_invalid", key };
  if (Math.floor(now / 1000) > expires) return { ok: false, reason: "expired", key };
  return { ok: true, key, expires };
}

export interface FileUrlSigner {
  sign(this: void, baseUrl: string, key: string, expiresInSeconds: number): string;
  verify(this: void, url: URL | string): FileUrlCheck;
}

export function fileUrlSigner(secret: string, now: () => number = Date.now): FileUrlSigner {
  return {
    sign: (baseUrl, key, expiresInSeconds) => signFileUrl(baseUrl, key, expiresInSeconds, secret, now()),
    verify: (url) => verifyFileUrl(url, secret, now()),
  };
}

const SEAL_PURPOSE = "file signing secret";

/**
 * The configured secret, or the stored one, created by whichever process needs it first. With the
 * server keyring it is stored sealed (a database copy cannot forge links); a secret stored in clear
 * before sealing keeps working and is sealed in place the first time it is read.
 */
export async function resolveFileSigningSecret(prisma: PrismaClient, configured?: string, keyring?: Keyring): Promise<string> {
  if (configured !== undefined) {
    if (configured.length < MIN_SECRET_LENGTH) throw new Error(`CUTROOM_FILE_SIGNING_SECRET must be at least ${MIN_SECRET_LENGTH} characters`);
    return configured;
  }
  const where = { setting_key: SIGNING_SECRET_SETTING };
  const stored = (await prisma.serviceSetting.findUnique({ where }))?.value;
  if (stored === undefined) {
    // Two processes may get here at once: the first insert wins and both read the winner.
    const secret = randomBytes(32).toString("hex");
    await prisma.serviceSetting.createMany({ data: [{ ...where, value: keyring ? sealWithServerKey(keyring, SEAL_PURPOSE, secret) : secret }], skipDuplicates: true });
    return resolveFileSigningSecret(prisma, undefined, keyring);
  }
  if (!keyring) return stored;
  const opened = openWithServerKey(keyring, SEAL_PURPOSE, stored);
  if (opened !== undefined) return opened;
  // Kept in clear before sealing: sealed now (only if still as read), the same secret, so links live on.
  await prisma.serviceSetting.updateMany({ where: { ...where, value: stored }, data: { value: sealWithServerKey(keyring, SEAL_PURPOSE, stored) } });
  return stored;
}
