// Webhook signing secrets at rest (docs/security.md, "The server key"). Every delivery is signed
// with them, so they cannot be hashed: they are sealed with the server key, held outside the
// database, and a copy of the database alone cannot sign as us.
import type { PrismaClient } from "../generated/prisma/client.js";
import { currentSealPrefix, openWithServerKey, sealWithServerKey, type Keyring } from "../config/keyring.js";
import { logger } from "../logger.js";

const PURPOSE = "webhook-signing-secret";

export function sealSigningSecret(keyring: Keyring, secret: string): string {
  return sealWithServerKey(keyring, PURPOSE, secret);
}

/**
 * The secret a stored value holds. A value in clear is the secret itself: written before sealing
 * (by a process of an earlier version during an upgrade), it signs until the next start seals it.
 */
export function openSigningSecret(keyring: Keyring, stored: string): string {
  return openWithServerKey(keyring, PURPOSE, stored) ?? stored;
}

interface StoredSecrets {
  endpoint_id: string;
  signing_secret: string;
  previous_signing_secret: string | null;
}

/**
 * Run at every start, after the migrations: seals each stored secret not yet sealed under the
 * current server key: kept in clear from before sealing, or sealed under a key a rotation put
 * second (so that key can later leave the ring). A value is replaced only if the row still holds
 * what was read, so processes starting together, a rotation or a delivery meanwhile are safe, and
 * a second run finds nothing to do. Returns how many values it sealed.
 */
export async function sealStoredSigningSecrets(prisma: PrismaClient, keyring: Keyring): Promise<number> {
  const prefix = currentSealPrefix(keyring);
  const rows = await prisma.$queryRaw<StoredSecrets[]>`
    SELECT endpoint_id, signing_secret, previous_signing_secret FROM webhook_endpoints
     WHERE NOT starts_with(signing_secret, ${prefix}) OR NOT starts_with(previous_signing_secret, ${prefix})`;
  let sealed = 0;
  for (const row of rows) {
    for (const column of ["signing_secret", "previous_signing_secret"] as const) {
      const stored = row[column];
      if (stored === null || stored.startsWith(prefix)) continue;
      let resealed: string;
      try {
        resealed = sealSigningSecret(keyring, openSigningSecret(keyring, stored));
      } catch (error) {
        // Sealed under a key no longer in the ring: nothing here can open it (its deliveries fail
        // until the key is back, or the endpoint's secret is rotated). The start goes on.
        logger.error({ err: error, endpoint_id: row.endpoint_id, column }, "webhook signing secret cannot be opened with this keyring");
        continue;
      }
      const set = (value: string) => (column === "signing_secret" ? { signing_secret: value } : { previous_signing_secret: value });
      const { count } = await prisma.webhookEndpoint.updateMany({ where: { endpoint_id: row.endpoint_id, ...set(stored) }, data: set(resealed) });
      sealed += count;
    }
  }
  if (sealed > 0) logger.info({ sealed }, "webhook signing secrets sealed with the current server key");
  return sealed;
}
