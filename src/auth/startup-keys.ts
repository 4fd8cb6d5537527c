// The keys `npm start` prints: a full_access key for everyday calls and an admin key (every scope,
// api_keys:* included) that manages keys while the service runs, through POST /api/v1/api_keys.
// The embedded database belongs to the running service, so the CLI cannot open it then; the admin
// key is how a second key is made without a restart (docs/guide/keys-and-scopes.md). Both are
// replaced at every start: the previous start's pair is revoked.
import type { PrismaClient } from "../generated/prisma/client.js";
import { createApiKey, scopesForPreset } from "./key-service.js";
import { defaultWorkspace } from "../workspaces/workspace-service.js";

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

export async function mintStartupKeys(prisma: PrismaClient, startingCredits: number): Promise<StartupKeys> {
  const workspaceId = await defaultWorkspace(prisma, startingCredits);
  await prisma.apiKey.updateMany({
    where: { workspace_id: workspaceId, purpose: { in: Object.values(PURPOSES) }, revoked_at: null },
    data: { revoked_at: new Date() },
  });
  const key = await createApiKey(prisma, { workspaceId, mode: "live", scopes: scopesForPreset("full_access"), name: "Printed by npm start", purpose: PURPOSES.key });
  const admin = await createApiKey(prisma, { workspaceId, mode: "live", scopes: ADMIN_SCOPES, name: "Admin key printed by npm start", purpose: PURPOSES.admin });
  return { workspaceId, key: key.secret, adminKey: admin.secret };
}
