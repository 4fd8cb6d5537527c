// The service's own secret, held outside the database (docs/security.md, "The server key"): a
// keyring of 32-byte keys, each with an id, the first one current. What the service seals at rest
// (idempotent answers and steps) is sealed with the current key and names its id, so a key can be
// rotated: a new key goes first, the old ones stay in the ring until nothing sealed under them is
// kept (24 hours for idempotent answers; webhook signing secrets are sealed again under the new
// key at the next start, src/webhooks/secrets.ts), then they are dropped.
//
// The ring is CUTROOM_SERVER_KEYS (`id:hex64[,id:hex64…]`), else the key file `server-keys` in the
// data directory (one `id:hex64` a line), created with one random key at first start (mode 0600).
// A copy of the database alone holds none of them.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

export interface ServerKey {
  id: string;
  key: Buffer;
}

export interface Keyring {
  /** The key new seals use. */
  current: ServerKey;
  /** A key of the ring by its id (older keys open what they sealed). */
  get(id: string): ServerKey | undefined;
}

export const KEY_FILE_NAME = "server-keys";
const ENTRY = /^([A-Za-z0-9_-]{1,32}):([0-9a-fA-F]{64})$/;

/** Parses `id:hex64` entries (comma- or line-separated), the first being current. */
export function parseKeyring(text: string, source: string): Keyring {
  const entries = text.split(/[,\n]/).map((entry) => entry.trim()).filter((entry) => entry && !entry.startsWith("#"));
  const keys: ServerKey[] = entries.map((entry) => {
    const match = ENTRY.exec(entry);
    if (!match) throw new Error(`${source}: each key is id:64 hex characters (32 bytes)`);
    return { id: match[1]!, key: Buffer.from(match[2]!, "hex") };
  });
  if (keys.length === 0) throw new Error(`${source}: no key`);
  const byId = new Map(keys.map((key) => [key.id, key]));
  if (byId.size !== keys.length) throw new Error(`${source}: two keys share an id`);
  return { current: keys[0]!, get: (id) => byId.get(id) };
}

/** The configured ring, or the data directory's key file (made with one random key if absent). */
export async function loadKeyring(options: { configured?: string; dataDir: string }): Promise<Keyring> {
  if (options.configured) return parseKeyring(options.configured, "CUTROOM_SERVER_KEYS");
  const file = path.join(options.dataDir, KEY_FILE_NAME);
  await mkdir(options.dataDir, { recursive: true });
  // `wx`: two processes starting at once both read the one file the first wrote.
  await writeFile(file, `k1:${randomBytes(32).toString("hex")}\n`, { flag: "wx", mode: 0o600 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
  return parseKeyring(await readFile(file, "utf8"), file);
}

const SEALED_PREFIX = "sealed:";

function purposeKey(serverKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", serverKey, "", `cutroom ${purpose}`, 32));
}

/** `sealed:<key id>:<base64url of IV, tag, ciphertext>`: a secret the database keeps, opened only with the ring. */
export function sealWithServerKey(keyring: Keyring, purpose: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", purposeKey(keyring.current.key, purpose), iv);
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${SEALED_PREFIX}${keyring.current.id}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url")}`;
}

/** How every value sealed under the ring's current key starts (what needs no resealing). */
export function currentSealPrefix(keyring: Keyring): string {
  return `${SEALED_PREFIX}${keyring.current.id}:`;
}

/** The plain value of a sealed one, or undefined when `stored` was not sealed (kept before sealing). */
export function openWithServerKey(keyring: Keyring, purpose: string, stored: string): string | undefined {
  if (!stored.startsWith(SEALED_PREFIX)) return undefined;
  const [id, body] = stored.slice(SEALED_PREFIX.length).split(":", 2) as [string, string | undefined];
  const serverKey = keyring.get(id);
  if (!serverKey) throw new Error(`The server key '${id}' that sealed this value is not in the keyring.`);
  const bytes = Buffer.from(body ?? "", "base64url");
  const decipher = createDecipheriv("aes-256-gcm", purposeKey(serverKey.key, purpose), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
}
