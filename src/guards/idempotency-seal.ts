// What an Idempotency-Key keeps at rest — the stored answer and each step's result — is sealed
// (docs/guards.md, "Sealed at rest"; docs/security.md, "The server key"). Those answers can carry
// what the API shows once (the secret `create_api_key` and `rotate_api_key` return, a webhook
// endpoint's signing secret), and a copy of the database must not show them.
//
// The seal's key is HKDF-SHA256 over the server key (held outside the database, src/config/keyring.ts)
// and the Idempotency-Key, salted with the API key's id: AES-256-GCM, a fresh 12-byte IV per seal.
// The Idempotency-Key itself is never stored (only its SHA-256), and a database copy holds neither
// it nor the server key, so guessing a weak Idempotency-Key from the copy opens nothing.
// Formats: a step result starts with SEALED_STEP_V2, the server key's id (its length, then its
// bytes), IV, tag, ciphertext; an answer is `s2.<key id>.<base64url of IV, tag, ciphertext>`.
//
// Records sealed before the server key (v1: the Idempotency-Key and API key id only; at most 24
// hours old) and before sealing at all still open: a v1 step starts with SEALED_STEP_V1
// (v8.serialize starts every buffer with 0xFF), a v1 answer with `s1.` (a stored answer is JSON).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { Keyring } from "../config/keyring.js";

const SEALED_STEP_V1 = 0x01;
const SEALED_STEP_V2 = 0x02;
const SEALED_BODY_V1 = "s1.";
const SEALED_BODY_V2 = "s2.";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface IdempotencySeal {
  sealBytes(plain: Uint8Array): Uint8Array<ArrayBuffer>;
  openBytes(stored: Uint8Array): Uint8Array;
  sealText(plain: string): string;
  openText(stored: string): string;
}

function seal(key: Buffer, plain: Uint8Array): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
}

function open(key: Buffer, bytes: Buffer): Buffer {
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The seal of one Idempotency-Key of one API key. Without a keyring it seals the v1 way (no server
 * key): only for reading old records and for tools that have no ring.
 */
export function idempotencySeal(idempotencyKey: string, apiKeyId: string, keyring?: Keyring): IdempotencySeal {
  const v1 = Buffer.from(hkdfSync("sha256", idempotencyKey, apiKeyId, "cutroom idempotency v1", 32));
  const v2 = (serverKey: Buffer) => Buffer.from(hkdfSync("sha256", Buffer.concat([serverKey, Buffer.from(idempotencyKey, "utf8")]), apiKeyId, "cutroom idempotency v2", 32));
  const serverKey = (id: string) => {
    const found = keyring?.get(id);
    if (!found) throw new Error(`The server key '${id}' that sealed this record is not in the keyring.`);
    return found.key;
  };
  const current = keyring?.current;
  const currentKey = current && v2(current.key);

  return {
    sealBytes: (plain) => {
      if (!current || !currentKey) return Uint8Array.from(Buffer.concat([Buffer.of(SEALED_STEP_V1), seal(v1, plain)]));
      const id = Buffer.from(current.id, "utf8");
      return Uint8Array.from(Buffer.concat([Buffer.of(SEALED_STEP_V2, id.length), id, seal(currentKey, plain)]));
    },
    openBytes: (stored) => {
      const bytes = asBuffer(stored);
      if (bytes[0] === SEALED_STEP_V1) return new Uint8Array(open(v1, bytes.subarray(1)));
      if (bytes[0] !== SEALED_STEP_V2) return stored;
      const idLength = bytes[1]!;
      const id = bytes.subarray(2, 2 + idLength).toString("utf8");
      return new Uint8Array(open(v2(serverKey(id)), bytes.subarray(2 + idLength)));
    },
    sealText: (plain) => {
      if (!current || !currentKey) return SEALED_BODY_V1 + seal(v1, Buffer.from(plain, "utf8")).toString("base64url");
      return `${SEALED_BODY_V2}${current.id}.${seal(currentKey, Buffer.from(plain, "utf8")).toString("base64url")}`;
    },
    openText: (stored) => {
      if (stored.startsWith(SEALED_BODY_V1)) return open(v1, Buffer.from(stored.slice(SEALED_BODY_V1.length), "base64url")).toString("utf8");
      if (!stored.startsWith(SEALED_BODY_V2)) return stored;
      const [id, body] = stored.slice(SEALED_BODY_V2.length).split(".", 2) as [string, string];
      return open(v2(serverKey(id)), Buffer.from(body ?? "", "base64url")).toString("utf8");
    },
  };
}
