import type { PrismaClient } from "../generated/prisma/client.js";
import { newId } from "../ids.js";
import { addCredits } from "../credits/ledger.js";

/** Creates a workspace; starting credits, when given, are granted through the ledger. */
export async function createWorkspace(prisma: PrismaClient, name: string, startingCredits = 0): Promise<string> {
  const workspaceId = newId("workspace");
  await prisma.$transaction(async (tx) => {
    await tx.workspace.create({ data: { workspace_id: workspaceId, name } });
    if (startingCredits > 0) {
      await addCredits(tx, { workspaceId, amount: startingCredits, actionType: "grant", description: "Starting credits" });
    }
  });
  return workspaceId;
}

/** The workspace a fresh installation works in: the oldest one, created on first use. */
export async function defaultWorkspace(prisma: PrismaClient, startingCredits = 0): Promise<string> {
  const existing = await prisma.workspace.findFirst({ orderBy: [{ created_at: "asc" }, { workspace_id: "asc" }] });
  return existing?.workspace_id ?? createWorkspace(prisma, "Default workspace", startingCredits);
}
