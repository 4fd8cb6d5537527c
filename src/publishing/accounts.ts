// Connecting a social account (outside the API: `npm run account -- connect`, src/cli/account.ts).
// The account is written with its credentials sealed (./credentials.ts); the API only reads it.
import type { PrismaClient } from "../generated/prisma/client.js";
import { newId } from "../ids.js";
import { PLATFORMS } from "./platforms/index.js";
import { sealCredentials, type PlatformCredentials } from "./credentials.js";

export interface NewAccount {
  workspaceId: string;
  platform: string;
  accountName: string;
  platformAccountId?: string;
  credentials: PlatformCredentials;
}

export async function connectAccount(prisma: PrismaClient, key: Buffer | undefined, account: NewAccount) {
  if (!PLATFORMS[account.platform]) throw new Error(`Unknown platform '${account.platform}'. Platforms: ${Object.keys(PLATFORMS).join(", ")}`);
  const accountId = newId("social_account");
  return prisma.socialAccount.create({
    data: {
      account_id: accountId,
      workspace_id: account.workspaceId,
      platform: account.platform,
      status: "connected",
      account_name: account.accountName,
      platform_account_id: account.platformAccountId ?? null,
      credentials_encrypted: sealCredentials(key, accountId, account.credentials),
    },
  });
}
