// What an Idempotency-Key keeps at rest — the stored answer and each step's result — is sealed
// under a key only that Idempotency-Key opens (docs/guards.md, "Sealed at rest"). Those answers
// can carry what the API shows once (the secret `create_api_key` and `rotate_api_key` return, a
// webhook endpoint's signing secret), and a copy of the database must not show it for 24 hours.
// The Idempotency-Key itself is never stored (only its SHA-256), and every replay or resumed
// attempt sends it again, so nothing has to be configured: AES-256-GCM under
// HKDF-SHA256(Idempotency-Key, salt = the API key's id), a fresh 12-byte IV per seal.
//
// Records written before sealing (at most 24 hours old) still open: a step result is sealed when
// its first byte is SEALED_STEP (v8.serialize starts every buffer with 0xFF), an answer when it
// starts with SEALED_BODY (a stored answer is JSON).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const SEALED_STEP = 0x01;
const SEALED_BODY = "s1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface IdempotencySeal {
  sealBytes(plain: Uint8Array): Uint8Array<ArrayBuffer>;
  openBytes(stored: Uint8Array): Uint8Array;
  sealText(plain: string): string;
  openText(stored: string): string;
}

export function idempotencySeal(idempotencyKey: string, apiKeyId: string): IdempotencySeal {
  const key = Buffer.from(hkdfSync("sha256", idempotencyKey, apiKeyId, "cutroom idempotency v1", 32));
  const seal = (plain: Uint8Array): Buffer => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([Buffer.of(SEALED_STEP), iv, cipher.getAuthTag(), sealed]);
  };
  const open = (stored: Uint8Array): Buffer => {
    const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
    const iv = bytes.subarray(1, 1 + IV_BYTES);
    const tag = bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(bytes.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
  };
  return {
    sealBytes: (plain) => Uint8Array.from(seal(plain)),
    openBytes: (stored) => (stored[0] === SEALED_STEP ? new Uint8Array(open(stored)) : stored),
    sealText: (plain) => SEALED_BODY + seal(Buffer.from(plain, "utf8")).toString("base64url"),
    openText: (stored) => (stored.startsWith(SEALED_BODY) ? open(Buffer.from(stored.slice(SEALED_BODY.length), "base64url")).toString("utf8") : stored),
  };
}
