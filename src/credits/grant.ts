// An operator's grant of credits (docs/credits.md, "Adding credits"): one ledger row of type
// `grant` with the reason, in one transaction with the balance it raises.
import type { PrismaClient } from "../generated/prisma/client.js";
import { addCredits, type MovementResult } from "./ledger.js";

/** The largest grant at once: a typo of a few zeros should not mint a fortune. */
export const MAX_GRANT = 1_000_000;

export class GrantRefused extends Error {}

export async function grantCredits(prisma: PrismaClient, grant: { workspaceId: string; amount: number; reason: string }): Promise<MovementResult> {
  if (!Number.isInteger(grant.amount) || grant.amount < 1 || grant.amount > MAX_GRANT) {
    throw new GrantRefused(`The amount is a whole number of credits from 1 to ${MAX_GRANT}.`);
  }
  const reason = grant.reason.trim();
  if (reason === "" || reason.length > 500) throw new GrantRefused("--reason is required: a short text (up to 500 characters) kept on the ledger row.");
  const workspace = await prisma.workspace.findUnique({ where: { workspace_id: grant.workspaceId }, select: { workspace_id: true } });
  if (!workspace) throw new GrantRefused(`No workspace '${grant.workspaceId}'.`);
  return prisma.$transaction((tx) => addCredits(tx, { workspaceId: grant.workspaceId, amount: grant.amount, actionType: "grant", description: reason }));
}
