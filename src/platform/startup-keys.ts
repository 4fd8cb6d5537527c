// The keys `npm start` prints: a full_access key for everyday calls and an admin key (every scope,
// api_keys:* included) that manages keys while the service runs, through POST /api/v1/api_keys.
// The embedded database belongs to the running service, so the CLI cannot open it then; the admin
// key is how a second key is made without a restart (docs/guide/keys-and-scopes.md). Both are
// replaced at every start: the previous start's pair is revoked.
import type { PrismaClient } from "../generated/prisma/client.js";
import { createApiKey, scopesForPreset } from "../auth/key-service.js";
import { defaultWorkspace } from "../workspaces/workspace-service.js";
import type { KeyCache } from "../auth/key-cache.js";

const PURPOSES = { key: "startup", admin: "startup_admin" } as const;

/** Every scope: a key can grant only scopes it holds, so the admin key must hold them all. */
export const ADMIN_SCOPES = ["*:*"] as const;

export interface StartupKeys {
  workspaceId: string;
  /** full_access: everything but api_keys. */
  key: string;
  /** `*:*`: also creates, changes, rotates and revokes keys. */
  adminKey: string;
}

/** `keyCache` tells the other running processes that the previous pair is revoked. */
export async function mintStartupKeys(prisma: PrismaClient, startingCredits: number, keyCache?: KeyCache): Promise<StartupKeys> {
  const workspaceId = await defaultWorkspace(prisma, startingCredits);
  const where = { workspace_id: workspaceId, purpose: { in: Object.values(PURPOSES) }, revoked_at: null };
  const previous = await prisma.apiKey.findMany({ where, select: { key_id: true } });
  await prisma.apiKey.updateMany({ where: { ...where, key_id: { in: previous.map((key) => key.key_id) } }, data: { revoked_at: new Date() } });
  for (const { key_id } of previous) await keyCache?.invalidate(key_id);
  const key = await createApiKey(prisma, { workspaceId, mode: "live", scopes: scopesForPreset("full_access"), name: "Printed by npm start", purpose: PURPOSES.key });
  const admin = await createApiKey(prisma, { workspaceId, mode: "live", scopes: ADMIN_SCOPES, name: "Admin key printed by npm start", purpose: PURPOSES.admin });
  return { workspaceId, key: key.secret, adminKey: admin.secret };
}
